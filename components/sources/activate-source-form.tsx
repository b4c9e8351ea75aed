"use client";

import { Plus } from "lucide-react";
import { useRef } from "react";
import { toast } from "sonner";
import { fieldErrors, toastUnlessFieldErrors } from "@/lib/form-errors";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/trpc/react";

export function ActivateSourceForm({ accountId }: { accountId: string }) {
  const form = useRef<HTMLFormElement>(null);
  const utils = api.useUtils();
  const activate = api.sources.activate.useMutation({
    onSuccess: async (source) => {
      form.current?.reset();
      toast.success(`Source ${source.referenceSource} / ${source.sourceIdentifier} activated`);
      await utils.sources.list.invalidate({ accountId });
    },
    onError: toastUnlessFieldErrors,
  });
  const errorOf = fieldErrors(activate.error);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "");
    activate.mutate({
      accountId,
      referenceSource: text("referenceSource"),
      sourceIdentifier: text("sourceIdentifier"),
      name: text("name") || undefined,
    });
  }

  return (
    <section
      aria-labelledby="activate-source-title"
      className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="activate-source-title" className="text-base font-semibold text-slate-900">
        Activate a source
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Orders that name a <code>ReferenceSource</code> and <code>SourceIdentifier</code> are accepted only for
        activated pairs, matched exactly (case included).
      </p>
      <form
        ref={form}
        onSubmit={submit}
        noValidate
        className="mt-4 grid gap-4 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-start"
      >
        <TextField
          id="source-reference"
          name="referenceSource"
          label="Reference source"
          placeholder="e.g. shopify"
          maxLength={64}
          required
          error={errorOf("referenceSource")}
        />
        <TextField
          id="source-identifier"
          name="sourceIdentifier"
          label="Source identifier"
          placeholder="e.g. store-cz"
          maxLength={64}
          required
          error={errorOf("sourceIdentifier")}
        />
        <TextField
          id="source-name"
          name="name"
          label="Name (optional)"
          placeholder="e.g. Czech store"
          maxLength={100}
          error={errorOf("name")}
        />
        <Button type="submit" className="sm:mt-6" disabled={activate.isPending}>
          {activate.isPending ? <Spinner /> : <Plus aria-hidden className="size-4" />}
          Activate
        </Button>
      </form>
    </section>
  );
}
