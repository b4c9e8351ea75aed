"use client";

import { Plus } from "lucide-react";
import { useState } from "react";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { api } from "@/trpc/react";
import { NewApiKey } from "./new-api-key";
import { ORIGINS_HINT, splitOrigins } from "./origins";
import { DEFAULT_RATE_LIMIT, parseRateLimit, RateLimitField } from "./rate-limit-field";

export function CreateApiKeyDialog({ accountId }: { accountId: string }) {
  const [open, setOpen] = useState(false);
  const [preventDuplicateOrders, setPreventDuplicateOrders] = useState(false);
  const [kind, setKind] = useState<"secret" | "publishable">("secret");
  const utils = api.useUtils();
  const create = api.apiKeys.create.useMutation({
    onSuccess: () => utils.apiKeys.list.invalidate({ accountId }),
    onError: toastUnlessFieldErrors,
  });
  const created = create.data;
  const errorOf = fieldErrors(create.error);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // Forget the key as soon as the dialog closes: it must not reappear when the dialog opens again.
      create.reset();
      setPreventDuplicateOrders(false);
      setKind("secret");
    }
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const name = String(data.get("name") ?? "");
    const rateLimitPerMinute = parseRateLimit(String(data.get("rateLimitPerMinute") ?? ""));
    if (kind === "publishable") {
      const allowedOrigins = splitOrigins(String(data.get("allowedOrigins") ?? ""));
      create.mutate({ accountId, name, kind, allowedOrigins, rateLimitPerMinute });
    } else {
      create.mutate({ accountId, name, preventDuplicateOrders, rateLimitPerMinute });
    }
  }

  // While the key is on screen, a stray click or Escape must not close the dialog and lose it.
  const keepOpen = (event: Event) => {
    if (created) event.preventDefault();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button data-create-api-key>
          <Plus aria-hidden className="size-4" />
          Create key
        </Button>
      </DialogTrigger>
      <DialogContent
        title={created ? "Your new API key" : "Create an API key"}
        description={
          created
            ? undefined
            : "A key lets your e-shop or ERP call the shipping API for this account. New keys have every permission."
        }
        onInteractOutside={keepOpen}
        onEscapeKeyDown={keepOpen}
      >
        {created ? (
          <NewApiKey name={created.name} kind={created.kind} apiKey={created.key} onDone={() => onOpenChange(false)} />
        ) : (
          <form onSubmit={submit} className="space-y-5" noValidate>
            <TextField
              id="api-key-name"
              name="name"
              label="Name"
              hint="Where the key is used, e.g. “Shopify store”. 1 to 100 characters."
              maxLength={100}
              required
              autoFocus
              error={errorOf("name")}
            />
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-800">Kind</legend>
              {(
                [
                  ["secret", "Secret", "For your server: calls the shipping API. Never put it in a web page."],
                  [
                    "publishable",
                    "Publishable",
                    "For the checkout widget in your web pages: only searches pickup points, only from the origins below.",
                  ],
                ] as const
              ).map(([value, label, hint]) => (
                <label key={value} className="flex items-start gap-2 text-sm">
                  <input
                    type="radio"
                    name="kind"
                    value={value}
                    checked={kind === value}
                    onChange={() => setKind(value)}
                    className="mt-1"
                  />
                  <span>
                    <span className="font-medium text-slate-900">{label}</span>
                    <span className="block text-xs text-slate-500">{hint}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            {kind === "publishable" ? (
              <TextField
                id="api-key-origins"
                name="allowedOrigins"
                label="Allowed origins"
                hint={ORIGINS_HINT}
                required
                error={errorOf("allowedOrigins")}
              />
            ) : null}
            <RateLimitField
              id="api-key-rate-limit"
              defaultValue={DEFAULT_RATE_LIMIT}
              error={errorOf("rateLimitPerMinute")}
            />
            <div className={kind === "publishable" ? "hidden" : "flex items-start justify-between gap-4"}>
              <div>
                <Label htmlFor="api-key-prevent-duplicates">Prevent duplicate orders</Label>
                <p id="api-key-prevent-duplicates-hint" className="mt-0.5 text-xs text-slate-500">
                  Refuse an order whose reference number is already used by an order from another source.
                </p>
              </div>
              <Switch
                id="api-key-prevent-duplicates"
                aria-describedby="api-key-prevent-duplicates-hint"
                checked={preventDuplicateOrders}
                onCheckedChange={setPreventDuplicateOrders}
              />
            </div>
            <DialogFooter>
              <Button variant="secondary" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? <Spinner /> : null}
                Create key
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
