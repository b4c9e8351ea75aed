"use client";

import { Globe } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { Tooltip } from "@/components/ui/tooltip";
import { api } from "@/trpc/react";
import { ORIGINS_HINT, splitOrigins } from "./origins";

type Key = { id: string; name: string; allowedOrigins: string[] };

/**
 * A publishable key's origins, replaced as a whole: a shop that moves to another domain keeps the key its pages
 * already carry.
 */
export function EditOriginsDialog({ accountId, apiKey }: { accountId: string; apiKey: Key }) {
  const [open, setOpen] = useState(false);
  const utils = api.useUtils();
  const update = api.apiKeys.update.useMutation({
    onSuccess: async (key) => {
      setOpen(false);
      toast.success(`“${key.name}” is answered to ${key.allowedOrigins.join(", ")}`);
      await utils.apiKeys.list.invalidate({ accountId });
    },
    onError: toastUnlessFieldErrors,
  });
  const errorOf = fieldErrors(update.error);

  function onOpenChange(next: boolean) {
    if (next) update.reset();
    setOpen(next);
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("allowedOrigins") ?? "");
    update.mutate({ id: apiKey.id, allowedOrigins: splitOrigins(text) });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Tooltip content="Edit origins">
        <DialogTrigger asChild>
          <Button variant="ghost" size="sm" aria-label={`Edit origins of ${apiKey.name}`}>
            <Globe aria-hidden className="size-3.5" />
          </Button>
        </DialogTrigger>
      </Tooltip>
      <DialogContent
        title={`Origins of “${apiKey.name}”`}
        description="The shop pages this key is answered to. Changes apply to the next request; the key stays the same."
      >
        <form onSubmit={submit} noValidate>
          <TextField
            id={`api-key-origins-${apiKey.id}`}
            name="allowedOrigins"
            label="Allowed origins"
            hint={ORIGINS_HINT}
            defaultValue={apiKey.allowedOrigins.join(", ")}
            error={errorOf("allowedOrigins")}
            autoFocus
          />
          <DialogFooter>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? <Spinner /> : null}
              Save origins
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
