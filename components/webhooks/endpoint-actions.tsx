"use client";

import { useState } from "react";
import { toast } from "sonner";
import { AlertDialog, AlertDialogTrigger, ConfirmContent } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { Switch } from "@/components/ui/switch";
import { api } from "@/trpc/react";
import { SecretOnce } from "./secret-once";

type Endpoint = { id: string; url: string; enabled: boolean };

export function EnabledSwitch({ accountId, endpoint }: { accountId: string; endpoint: Endpoint }) {
  const utils = api.useUtils();
  const update = api.webhooks.update.useMutation({
    onSuccess: async (updated) => {
      toast.success(updated.enabled ? "Endpoint enabled" : "Endpoint disabled");
      await utils.webhooks.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Switch
      aria-label={`Deliveries to ${endpoint.url}`}
      checked={endpoint.enabled}
      disabled={update.isPending}
      onCheckedChange={(enabled) => update.mutate({ id: endpoint.id, enabled })}
    />
  );
}

export function SendTestButton({ accountId, endpoint }: { accountId: string; endpoint: Endpoint }) {
  const utils = api.useUtils();
  const send = api.webhooks.sendTest.useMutation({
    onSuccess: async () => {
      toast.success("Test event queued");
      await utils.webhooks.deliveries.invalidate({ id: endpoint.id });
      await utils.webhooks.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <Button variant="secondary" size="sm" disabled={send.isPending} onClick={() => send.mutate({ id: endpoint.id })}>
      Send test
    </Button>
  );
}

export function RotateSecretButton({ endpoint }: { endpoint: Endpoint }) {
  const [confirming, setConfirming] = useState(false);
  const rotate = api.webhooks.rotateSecret.useMutation({
    onSuccess: () => setConfirming(false),
    onError: (error) => toast.error(error.message),
  });
  return (
    <>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogTrigger asChild>
          <Button variant="secondary" size="sm">
            Rotate secret
          </Button>
        </AlertDialogTrigger>
        <ConfirmContent
          title="Rotate the signing secret?"
          description="A new secret signs from now on. The current one keeps signing too for 24 hours, so your receiver can switch without missing a delivery."
          confirmLabel="Rotate secret"
          pending={rotate.isPending}
          onConfirm={() => rotate.mutate({ id: endpoint.id })}
        />
      </AlertDialog>
      <Dialog open={Boolean(rotate.data)} onOpenChange={(open) => (open ? null : rotate.reset())}>
        <DialogContent
          title="The new signing secret"
          onInteractOutside={(e) => e.preventDefault()}
          onEscapeKeyDown={(e) => e.preventDefault()}
        >
          {rotate.data ? (
            <SecretOnce
              secret={rotate.data.secret}
              note="The previous secret also signs for the next 24 hours."
              onDone={() => rotate.reset()}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

export function DeleteEndpointButton({ accountId, endpoint }: { accountId: string; endpoint: Endpoint }) {
  const [open, setOpen] = useState(false);
  const utils = api.useUtils();
  const remove = api.webhooks.delete.useMutation({
    onSuccess: async () => {
      setOpen(false);
      toast.success("Endpoint deleted");
      await utils.webhooks.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="danger-ghost" size="sm" aria-label={`Delete endpoint ${endpoint.url}`}>
          Delete
        </Button>
      </AlertDialogTrigger>
      <ConfirmContent
        title="Delete this endpoint?"
        description="No more events are sent to it, and its delivery log is removed. This cannot be undone."
        confirmLabel="Delete endpoint"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ id: endpoint.id })}
      />
    </AlertDialog>
  );
}
