"use client";

import { useState } from "react";
import { toast } from "sonner";
import { AlertDialog, AlertDialogTrigger, ConfirmContent } from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import type { SourceView } from "@/server/services/sources/schemas";
import { api } from "@/trpc/react";

export function DeactivateSourceButton({ accountId, source }: { accountId: string; source: SourceView }) {
  const [open, setOpen] = useState(false);
  const pair = `${source.referenceSource} / ${source.sourceIdentifier}`;
  const utils = api.useUtils();
  const deactivate = api.sources.deactivate.useMutation({
    onSuccess: async () => {
      setOpen(false);
      toast.success(`Source ${pair} deactivated`);
      await utils.sources.list.invalidate({ accountId });
    },
    onError: (error) => toast.error(error.message),
  });
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button variant="danger-ghost" size="sm" aria-label={`Deactivate source ${pair}`}>
          Deactivate
        </Button>
      </AlertDialogTrigger>
      <ConfirmContent
        title={`Deactivate ${pair}?`}
        description="New orders naming this pair will be refused (422). Orders created with it so far keep it."
        confirmLabel="Deactivate"
        pending={deactivate.isPending}
        onConfirm={() => deactivate.mutate({ id: source.id })}
      />
    </AlertDialog>
  );
}
