"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { withAccount } from "@/lib/account";
import { AlertDialog, AlertDialogTrigger, ConfirmContent } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { api } from "@/trpc/react";

export function DeleteOrderButton({
  accountId,
  order,
}: {
  accountId: string;
  order: { id: string; referenceNumber: string };
}) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const utils = api.useUtils();
  const remove = api.shippingOrders.delete.useMutation({
    onSuccess: async () => {
      setOpen(false);
      toast.success(`Shipment ${order.referenceNumber} cancelled`);
      router.push(withAccount("/dashboard/orders", accountId));
      // Marked stale without refetching: this page is still on screen and the order now answers "not found".
      await Promise.all([
        utils.shippingOrders.list.invalidate({ accountId }),
        utils.shippingOrders.get.invalidate({ accountId, id: order.id }, { refetchType: "none" }),
        utils.overview.get.invalidate({ accountId }),
      ]);
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="danger-ghost">
          <Trash2 aria-hidden className="size-4" />
          Cancel shipment
        </Button>
      </AlertDialogTrigger>
      <ConfirmContent
        title={`Cancel shipment ${order.referenceNumber}?`}
        description="The shipment is cancelled with the courier and the order is removed from the list; its labels stop being valid. This cannot be undone."
        confirmLabel="Cancel shipment"
        dismissLabel="Keep shipment"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ accountId, id: order.id })}
      />
    </AlertDialog>
  );
}
