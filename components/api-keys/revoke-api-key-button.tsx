"use client";

import { useRef, useState } from "react";
import { toast } from "sonner";
import { AlertDialog, AlertDialogTrigger, ConfirmContent } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { api } from "@/trpc/react";

export function RevokeApiKeyButton({ accountId, apiKey }: { accountId: string; apiKey: { id: string; name: string } }) {
  const [open, setOpen] = useState(false);
  const revoked = useRef(false);
  const utils = api.useUtils();
  const revoke = api.apiKeys.revoke.useMutation({
    onSuccess: async () => {
      revoked.current = true;
      setOpen(false);
      toast.success(`API key “${apiKey.name}” revoked`);
      await utils.apiKeys.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="danger-ghost" size="sm" aria-label={`Revoke API key ${apiKey.name}`}>
          Revoke
        </Button>
      </AlertDialogTrigger>
      <ConfirmContent
        title={`Revoke “${apiKey.name}”?`}
        description="Requests that use this key are refused from the next request on. This cannot be undone: a system still using the key needs a new one."
        confirmLabel="Revoke key"
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate({ id: apiKey.id })}
        // The key's row (and this button) leaves the table: focus goes to "Create key", not to the page's body.
        focusAfterClose={() => (revoked.current ? document.querySelector<HTMLElement>("[data-create-api-key]") : null)}
      />
    </AlertDialog>
  );
}
