"use client";

import { Plus } from "lucide-react";
import { useState } from "react";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/field";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/trpc/react";
import { eventTypeLabels, ORDER_EVENT_TYPES } from "@/lib/event-types";
import { SecretOnce } from "./secret-once";

type Pair = { referenceSource: string; sourceIdentifier: string };
const pairKey = (p: Pair) => `${p.referenceSource}/${p.sourceIdentifier}`;

function CheckList<T>({
  legend,
  items,
  keyOf,
  labelOf,
  selected,
  onChange,
  error,
}: {
  legend: string;
  items: T[];
  keyOf: (item: T) => string;
  labelOf: (item: T) => React.ReactNode;
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
  error?: string;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {items.map((item) => {
          const key = keyOf(item);
          const id = `check-${legend}-${key}`.replace(/\W+/g, "-");
          return (
            <div key={key} className="flex items-center gap-2">
              <Checkbox
                id={id}
                checked={selected.has(key)}
                onCheckedChange={(checked) => {
                  const next = new Set(selected);
                  if (checked === true) next.add(key);
                  else next.delete(key);
                  onChange(next);
                }}
              />
              <Label htmlFor={id} className="font-normal">
                {labelOf(item)}
              </Label>
            </div>
          );
        })}
      </div>
      {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
    </fieldset>
  );
}

export function CreateWebhookDialog({ accountId }: { accountId: string }) {
  const [open, setOpen] = useState(false);
  const [types, setTypes] = useState(() => new Set<string>(ORDER_EVENT_TYPES));
  const [allPairs, setAllPairs] = useState(true);
  const [pairs, setPairs] = useState(() => new Set<string>());
  const utils = api.useUtils();
  const sources = api.sources.list.useQuery({ accountId }, { enabled: open });
  const create = api.webhooks.create.useMutation({
    onSuccess: () => utils.webhooks.list.invalidate({ accountId }),
    onError: toastUnlessFieldErrors,
  });
  const created = create.data;
  const errorOf = fieldErrors(create.error);
  const knownPairs: Pair[] = [
    { referenceSource: "api", sourceIdentifier: "default" },
    ...(sources.data?.items ?? []).map((s) => ({
      referenceSource: s.referenceSource,
      sourceIdentifier: s.sourceIdentifier,
    })),
  ];

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      // The secret must not reappear when the dialog opens again.
      create.reset();
      setTypes(new Set(ORDER_EVENT_TYPES));
      setAllPairs(true);
      setPairs(new Set());
    }
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    create.mutate({
      accountId,
      url: String(data.get("url") ?? ""),
      description: String(data.get("description") ?? "") || null,
      eventTypes: ORDER_EVENT_TYPES.filter((t) => types.has(t)),
      sources: allPairs ? null : knownPairs.filter((p) => pairs.has(pairKey(p))),
    });
  }

  const keepOpen = (event: Event) => {
    if (created) event.preventDefault();
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden className="size-4" />
          Add endpoint
        </Button>
      </DialogTrigger>
      <DialogContent
        title={created ? "Your endpoint's signing secret" : "Add a webhook endpoint"}
        description={
          created
            ? undefined
            : "Order events of this account are POSTed to the URL, signed, and retried until it answers 2xx."
        }
        onInteractOutside={keepOpen}
        onEscapeKeyDown={keepOpen}
      >
        {created ? (
          <SecretOnce
            secret={created.secret}
            note="It signs every delivery to this endpoint. If you lose it, rotate the secret."
            onDone={() => onOpenChange(false)}
          />
        ) : (
          <form onSubmit={submit} className="space-y-5" noValidate>
            <TextField
              id="webhook-url"
              name="url"
              label="URL"
              placeholder="https://erp.example.com/hooks/shipping"
              hint="https:// on a public address."
              required
              autoFocus
              error={errorOf("url")}
            />
            <TextField
              id="webhook-description"
              name="description"
              label="Description"
              maxLength={500}
              error={errorOf("description")}
            />
            <CheckList
              legend="Event types"
              items={[...ORDER_EVENT_TYPES]}
              keyOf={(t) => t}
              labelOf={(t) => eventTypeLabels[t]}
              selected={types}
              onChange={setTypes}
              error={errorOf("eventTypes")}
            />
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-800">Source pairs</legend>
              <div className="flex items-center gap-2">
                <Checkbox id="webhook-all-pairs" checked={allPairs} onCheckedChange={(c) => setAllPairs(c === true)} />
                <Label htmlFor="webhook-all-pairs" className="font-normal">
                  Every source pair (also ones activated later)
                </Label>
              </div>
              {allPairs ? null : (
                <CheckList
                  legend="Only these pairs"
                  items={knownPairs}
                  keyOf={pairKey}
                  labelOf={(p) => <span className="font-mono text-xs">{pairKey(p)}</span>}
                  selected={pairs}
                  onChange={setPairs}
                  error={errorOf("sources")}
                />
              )}
            </fieldset>
            <DialogFooter>
              <Button variant="secondary" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? <Spinner /> : null}
                Add endpoint
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
