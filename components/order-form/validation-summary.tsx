"use client";

import { CircleAlert, CircleCheck, PackageX, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { withAccount } from "@/lib/account";
import { cn } from "@/lib/cn";
import type { ValidationResponse } from "@/server/services/shipping-orders/validation-messages";
import type { ApiError } from "@/trpc/react";
import { atFieldText, fieldId, fieldLabel, type PlacedMessages } from "@/lib/order-form/order-paths";
import { SuggestionButtons } from "./suggestion-buttons";

const looks = {
  OK: {
    box: "border-green-200 bg-green-50 text-green-900",
    icon: CircleCheck,
    title: "The order passes validation",
    text: "The courier would accept it as it is.",
  },
  WARNING: {
    box: "border-amber-300 bg-amber-50 text-amber-900",
    icon: TriangleAlert,
    title: "The order passes, with warnings",
    text: "It would be accepted; the warnings are worth a look.",
  },
  ERROR: {
    box: "border-red-200 bg-red-50 text-red-900",
    icon: CircleAlert,
    title: "The order has errors",
    text: "It would be refused. Correct the fields and validate again.",
  },
} as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function countsOf(messages: ValidationResponse["messages"]): string {
  const errors = messages.filter((m) => m.severity === "ERROR").length;
  return `${plural(errors, "error")} and ${plural(messages.length - errors, "warning")}`;
}

/** Moves focus to the input a summary line is about; a plain `#id` link would only scroll. */
function focusField(event: React.MouseEvent<HTMLAnchorElement>, path: string) {
  const input = document.getElementById(fieldId(path));
  if (!input) return;
  event.preventDefault();
  input.focus();
  input.scrollIntoView({ block: "center" });
}

const summaryClass = "rounded-lg border p-4 text-sm focus:outline-2 focus:outline-offset-2 focus:outline-blue-600";

/** The first thing read after submitting: the verdict, links to the fields with messages, and messages no input shows. */
export function ValidationSummary({
  ref,
  response,
  placed,
  created = false,
}: {
  ref: React.Ref<HTMLDivElement>;
  response: ValidationResponse;
  placed: PlacedMessages;
  /** The answer of a create that stopped at validation: nothing was created. */
  created?: boolean;
}) {
  const look =
    created && response.status === "ERROR"
      ? {
          ...looks.ERROR,
          title: "Nothing was created: the order has errors",
          text: "Correct the fields and try again.",
        }
      : looks[response.status];
  const Icon = look.icon;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-labelledby="validation-summary-title"
      className={cn(summaryClass, look.box)}
    >
      <h2 id="validation-summary-title" className="flex items-center gap-2 text-base font-semibold">
        <Icon aria-hidden className="size-5 shrink-0" />
        {look.title}
      </h2>
      <p className="mt-1">
        {look.text} {response.messages.length ? `${countsOf(response.messages)}.` : null}
      </p>
      {placed.placed.length ? (
        <ul className="mt-3 list-disc space-y-1 pl-5">
          {placed.placed.map(({ message, path }, i) => (
            <li key={i}>
              <a
                href={`#${fieldId(path)}`}
                onClick={(event) => focusField(event, path)}
                className="underline underline-offset-2"
              >
                {fieldLabel(path)}: {atFieldText(message)}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {placed.unplaced.length ? (
        <>
          <p className="mt-3 font-medium">Not shown at a field of this form:</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {placed.unplaced.map((m, i) => (
              <li key={i}>
                <code className="rounded bg-white/70 px-1 font-mono text-xs">{m.field ?? "order"}</code> {m.message}
                <SuggestionButtons message={m} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** A validation the server refused as a whole: an inactive source pair (422), an unknown courier or profile (404). */
export function ValidationFailure({ ref, error }: { ref: React.Ref<HTMLDivElement>; error: ApiError }) {
  const title =
    error.data?.code === "UNPROCESSABLE_CONTENT"
      ? "The source pair is not activated"
      : error.data?.code === "NOT_FOUND"
        ? "Courier or profile not found"
        : "The order could not be validated";
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-labelledby="validation-failure-title"
      className={cn(summaryClass, "border-red-200 bg-red-50 text-red-900")}
    >
      <h2 id="validation-failure-title" className="flex items-center gap-2 text-base font-semibold">
        <CircleAlert aria-hidden className="size-5 shrink-0" />
        {title}
      </h2>
      <p className="mt-1 break-words">{error.message}</p>
      {error.data?.errors?.length ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {error.data.errors.map((e) => (
            <li key={e.field + e.message}>
              <code className="rounded bg-white/70 px-1 font-mono text-xs">{e.field}</code> {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The validation answer a refused create carries (400 "nothing was created"), for the form to show at its fields. */
export function validationOf(error: ApiError | null): ValidationResponse | ValidationResponse[] | null {
  const validation = error?.data?.validation;
  return validation ? (validation as ValidationResponse | ValidationResponse[]) : null;
}

/** A create the rules passed but the courier refused or did not answer: nothing was created, the attempt is kept. */
export function CourierRefusal({
  ref,
  refusal,
  accountId,
}: {
  ref: React.Ref<HTMLDivElement>;
  refusal: { referenceNumber: string; code: string; message: string };
  accountId: string;
}) {
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-labelledby="courier-refusal-title"
      className={cn(summaryClass, "border-red-200 bg-red-50 text-red-900")}
    >
      <h2 id="courier-refusal-title" className="flex items-center gap-2 text-base font-semibold">
        <PackageX aria-hidden className="size-5 shrink-0" />
        {refusal.code === "COURIER_REJECTED" ? "Refused by the courier" : "The courier did not answer"}
      </h2>
      <p className="mt-1 break-words">
        {refusal.message} Nothing was created; the attempt is kept under{" "}
        <Link className="underline underline-offset-2" href={withAccount("/dashboard/orders/refused", accountId)}>
          refused orders
        </Link>
        . Change the order and create it again.
      </p>
    </div>
  );
}
