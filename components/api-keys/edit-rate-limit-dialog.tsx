"use client";

import { Gauge } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { Tooltip } from "@/components/ui/tooltip";
import { api } from "@/trpc/react";
import { parseRateLimit, RateLimitField } from "./rate-limit-field";

type Key = { id: string; name: string; rateLimitPerMinute: number };

export function EditRateLimitDialog({ accountId, apiKey }: { accountId: string; apiKey: Key }) {
  const [open, setOpen] = useState(false);
  const utils = api.useUtils();
  const update = api.apiKeys.update.useMutation({
    onSuccess: async (key) => {
      setOpen(false);
      toast.success(`Rate limit of “${key.name}” set to ${key.rateLimitPerMinute} per minute`);
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
    // Empty is not "the default" here: it would change nothing, so it is sent as "not a number" and refused.
    const value =
      parseRateLimit(String(new FormData(event.currentTarget).get("rateLimitPerMinute") ?? "")) ?? Number.NaN;
    update.mutate({ id: apiKey.id, rateLimitPerMinute: value });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Tooltip content="Edit rate limit">
        <DialogTrigger asChild>
          <Button variant="ghost" size="sm" aria-label={`Edit rate limit of ${apiKey.name}`}>
            <Gauge aria-hidden className="size-3.5" />
          </Button>
        </DialogTrigger>
      </Tooltip>
      <DialogContent
        title={`Rate limit of “${apiKey.name}”`}
        description="How many requests a minute this key may make. Changes apply to the next request."
      >
        <form onSubmit={submit} noValidate>
          <RateLimitField
            id={`rate-limit-${apiKey.id}`}
            defaultValue={apiKey.rateLimitPerMinute}
            error={errorOf("rateLimitPerMinute")}
            autoFocus
          />
          <DialogFooter>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? <Spinner /> : null}
              Save rate limit
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
