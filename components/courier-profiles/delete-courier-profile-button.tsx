"use client";

import { Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { AlertDialog, AlertDialogTrigger, ConfirmContent } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { api } from "@/trpc/react";

/** Deletes a profile; one that orders used is archived instead, which the toast says. */
export function DeleteCourierProfileButton({
  accountId,
  profile,
}: {
  accountId: string;
  profile: { id: string; name: string; isDefault: boolean };
}) {
  const [open, setOpen] = useState(false);
  const utils = api.useUtils();
  const remove = api.courierProfiles.delete.useMutation({
    onSuccess: async (result) => {
      setOpen(false);
      toast.success(
        result.archived
          ? `“${profile.name}” archived: orders used it, so it is kept for them but takes no new orders`
          : `“${profile.name}” deleted`,
      );
      await utils.courierProfiles.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="danger-ghost" size="sm" aria-label={`Delete ${profile.name}`}>
          <Trash2 aria-hidden className="size-4" />
          Delete
        </Button>
      </AlertDialogTrigger>
      <ConfirmContent
        title={`Delete ${profile.name}?`}
        description={
          `New orders can no longer use it. If orders used it, it is archived instead of deleted, so they keep their tracking.` +
          (profile.isDefault ? " The courier's oldest other profile becomes the default." : "")
        }
        confirmLabel="Delete profile"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ id: profile.id })}
      />
    </AlertDialog>
  );
}
