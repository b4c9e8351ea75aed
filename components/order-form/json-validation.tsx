"use client";

import { ClipboardCheck, PackagePlus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { withAccount } from "@/lib/account";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { MessageList } from "@/components/validation-report/message-list";
import { ValidationStatusBadge } from "@/components/validation-report/validation-status-badge";
import { api } from "@/trpc/react";
import { countsOf, ValidationFailure, validationOf } from "./validation-summary";

const EXAMPLE = [
  {
    ReferenceNumber: "ORDER-1001",
    Recipient: {
      Name: "Jana Nováková",
      Street: "Dlouhá 12",
      City: "Praha",
      Zip: "110 00",
      Country: "CZ",
      Email: "jana@example.com",
    },
    Parcels: [{ Weight: 1.5 }],
  },
  {
    ReferenceNumber: "ORDER-1002",
    Recipient: { Name: "Max Muster", Street: "Hauptstraße 1", City: "Berlin", Zip: "1011", Country: "DE" },
    Parcels: [{ Weight: 40 }],
  },
];

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parse(text: string): Parsed {
  if (text.trim() === "") return { ok: false, error: "Paste one order object or an array of orders." };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `This is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * Orders pasted as the API receives them (one object or an array); the answer is listed per order with field
 * paths. With `canCreate` they can also be created, through the same create as the REST API; `initialText`
 * starts it from an order exactly as it was sent.
 */
export function JsonValidation({
  accountId,
  courierId,
  profileId,
  initialText = "",
  canCreate = false,
}: {
  accountId: string;
  courierId: string;
  profileId: string | null;
  initialText?: string;
  canCreate?: boolean;
}) {
  const [text, setText] = useState(initialText);
  const router = useRouter();
  const utils = api.useUtils();
  const [syntaxError, setSyntaxError] = useState<string>();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const summary = useRef<HTMLDivElement>(null);
  const validate = api.shippingOrders.validate.useMutation();
  const create = api.shippingOrders.create.useMutation({
    onSuccess: async (answer) => {
      await Promise.all([
        utils.shippingOrders.list.invalidate(),
        utils.refusedAttempts.list.invalidate(),
        utils.overview.get.invalidate(),
      ]);
      const [only] = answer.items;
      if (only && answer.items.length === 1 && answer.failed.length === 0) {
        toast.success(`Order ${only.referenceNumber} created`);
        router.push(withAccount(`/dashboard/orders/${only.id}`, accountId));
      }
    },
  });
  const answer = validate.data ?? validationOf(create.error) ?? undefined;
  const results = answer === undefined ? null : Array.isArray(answer) ? answer : [answer];
  const failure = validate.error ?? (validationOf(create.error) ? null : create.error);
  const created = create.data;

  useEffect(() => {
    if (validate.data || validate.error || create.error || create.data) summary.current?.focus();
  }, [validate.data, validate.error, create.error, create.data]);

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = parse(text);
    if (!parsed.ok) {
      setSyntaxError(parsed.error);
      validate.reset();
      textarea.current?.focus();
      return;
    }
    setSyntaxError(undefined);
    const input = { accountId, courierId, profileId, body: parsed.value };
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    // One answer on screen at a time: the other button's result would contradict it.
    if (canCreate && submitter?.getAttribute("value") === "create") {
      validate.reset();
      create.mutate(input);
    } else {
      create.reset();
      validate.mutate(input);
    }
  }

  const tally = (status: string) => results?.filter((r) => r.status === status).length ?? 0;
  return (
    <div className="space-y-6">
      <form
        onSubmit={submit}
        noValidate
        aria-label="Orders as JSON"
        className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        <Field
          id="validate-json"
          label="Orders (JSON)"
          hint="One order object, or an array of up to 500, with the API's field names (ReferenceNumber, Recipient, Parcels, …)."
          error={syntaxError}
        >
          <Textarea
            ref={textarea}
            id="validate-json"
            rows={14}
            spellCheck={false}
            className="font-mono text-xs"
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={syntaxError ? true : undefined}
            aria-describedby={["validate-json-hint", syntaxError ? "validate-json-error" : null]
              .filter(Boolean)
              .join(" ")}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            name="action"
            value="validate"
            variant={canCreate ? "secondary" : undefined}
            disabled={validate.isPending || create.isPending}
          >
            {validate.isPending ? <Spinner /> : <ClipboardCheck aria-hidden className="size-4" />}
            Validate JSON
          </Button>
          {canCreate ? (
            <Button type="submit" name="action" value="create" disabled={validate.isPending || create.isPending}>
              {create.isPending ? <Spinner /> : <PackagePlus aria-hidden className="size-4" />}
              Create from JSON
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => setText(JSON.stringify(EXAMPLE, null, 2))}>
            Insert an example
          </Button>
        </div>
      </form>
      {failure ? <ValidationFailure ref={summary} error={failure} /> : null}
      {created ? (
        <section
          ref={summary}
          tabIndex={-1}
          aria-labelledby="json-created-title"
          className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm focus:outline-2 focus:outline-offset-2 focus:outline-blue-600"
        >
          <h2 id="json-created-title" className="text-base font-semibold text-slate-900">
            {created.items.length} created, {created.failed.length} refused by the courier
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {created.items.map((o) => (
              <li key={o.id}>
                <Link className="text-blue-700 underline" href={withAccount(`/dashboard/orders/${o.id}`, accountId)}>
                  {o.referenceNumber}
                </Link>
              </li>
            ))}
            {created.failed.map((f, i) => (
              <li key={i} className="text-red-800">
                {f.referenceNumber}: refused by the courier: {f.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {results ? (
        <section
          ref={summary}
          tabIndex={-1}
          aria-labelledby="json-results-title"
          className="space-y-4 rounded-lg focus:outline-2 focus:outline-offset-2 focus:outline-blue-600"
        >
          <h2 id="json-results-title" className="text-base font-semibold text-slate-900">
            {results.length === 1 ? "1 order validated" : `${results.length} orders validated`}: {tally("OK")} OK,{" "}
            {tally("WARNING")} with warnings, {tally("ERROR")} with errors
          </h2>
          <ol className="space-y-4">
            {results.map((result, i) => (
              <li
                key={i}
                aria-labelledby={`json-result-${i}`}
                className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
              >
                <h3
                  id={`json-result-${i}`}
                  className="mb-3 flex flex-wrap items-center gap-2 text-sm font-semibold text-slate-900"
                >
                  Order {i + 1}
                  {result.referenceNumber ? (
                    <span className="font-mono font-normal text-slate-600">{result.referenceNumber}</span>
                  ) : null}
                  <ValidationStatusBadge status={result.status} />
                  {result.messages.length ? (
                    <span className="font-normal text-slate-500">{countsOf(result.messages)}</span>
                  ) : null}
                </h3>
                <MessageList messages={result.messages} />
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
