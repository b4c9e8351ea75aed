"use client";

import { ClipboardCheck, Plus, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import type { CourierCapabilities } from "@/server/couriers/types";
import { api } from "@/trpc/react";
import { buildOrder } from "./build-order";
import { MessageField, MessageInput } from "./message-field";
import { placeMessages } from "./order-paths";
import { ValidationFailure, ValidationSummary } from "./validation-summary";

// Radix Select items cannot have an empty value; these stand for "not given".
const BUILT_IN = "__api_default__";
const PROFILE_DEFAULT = "__profile_default__";
const NO_CURRENCY = "__none__";
const MAX_PARCELS = 20;

/** Paths with an input in this form; parcels add `Parcels[i].Weight` each. */
const FORM_PATHS = [
  "ReferenceNumber",
  "SourcePair",
  "Service",
  "PickupPoint",
  ...["Name", "Company", "Street", "City", "Zip", "Country", "Email", "Phone"].map((f) => `Recipient.${f}`),
  "CodPrice",
  "CodCurrency",
];

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <legend className="float-left mb-4 w-full text-base font-semibold text-slate-900">{title}</legend>
      <div className="clear-both grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

/** The common fields of one order, validated by the server with each message shown at the input it names. */
export function OrderForm({
  accountId,
  courier,
  profileId,
}: {
  accountId: string;
  courier: CourierCapabilities;
  profileId: string | null;
}) {
  const [sources] = api.sources.list.useSuspenseQuery({ accountId });
  const [parcels, setParcels] = useState<number[]>([0]);
  const nextParcel = useRef(1);
  const [sourceId, setSourceId] = useState(BUILT_IN);
  const [service, setService] = useState(PROFILE_DEFAULT);
  const [codCurrency, setCodCurrency] = useState(NO_CURRENCY);
  const summary = useRef<HTMLDivElement>(null);
  const validate = api.shippingOrders.validate.useMutation();
  const response = validate.data && !Array.isArray(validate.data) ? validate.data : null;
  const placed = placeMessages(
    response?.messages ?? [],
    new Set([...FORM_PATHS, ...parcels.map((_, i) => `Parcels[${i}].Weight`)]),
  );
  const at = placed.at;

  // Every answer (or refusal) moves focus to the summary, so a screen reader hears the verdict first.
  useEffect(() => {
    if (validate.data || validate.error) summary.current?.focus();
  }, [validate.data, validate.error]);

  function changeParcels(next: number[]) {
    // Messages name parcels by position; once positions change they would point at the wrong parcel.
    validate.reset();
    setParcels(next);
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const source = sources.items.find((s) => s.id === sourceId) ?? null;
    const body = buildOrder(new FormData(event.currentTarget), {
      parcelCount: parcels.length,
      source,
      service: service === PROFILE_DEFAULT ? "" : service,
      codCurrency: codCurrency === NO_CURRENCY ? "" : codCurrency,
    });
    validate.mutate({ accountId, courierId: courier.id, profileId, body });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Order to validate" className="space-y-6">
      {validate.error ? (
        <ValidationFailure ref={summary} error={validate.error} />
      ) : response ? (
        <ValidationSummary ref={summary} response={response} placed={placed} />
      ) : null}
      <Section title="Order">
        <MessageInput
          path="ReferenceNumber"
          label="Reference number"
          hint="Your order number, 1 to 64 characters."
          messages={at("ReferenceNumber")}
          autoComplete="off"
        />
        <MessageField
          path="SourcePair"
          label="Source"
          hint="The e-shop the order comes from: an activated pair, or the built-in api / default."
          messages={at("SourcePair")}
        >
          {(a11y) => (
            <Select value={sourceId} onValueChange={setSourceId}>
              <SelectTrigger {...a11y} />
              <SelectContent>
                <SelectItem value={BUILT_IN}>api / default (built in)</SelectItem>
                {sources.items.map((s) => (
                  <SelectItem key={s.id} value={s.id} description={s.name ?? undefined}>
                    {`${s.referenceSource} / ${s.sourceIdentifier}`}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </MessageField>
        <MessageField path="Service" label="Service" messages={at("Service")}>
          {(a11y) => (
            <Select value={service} onValueChange={setService}>
              <SelectTrigger {...a11y} />
              <SelectContent>
                <SelectItem value={PROFILE_DEFAULT}>The profile&apos;s default</SelectItem>
                {courier.services.map((s) => (
                  <SelectItem
                    key={s.code}
                    value={s.code}
                    description={s.requiresPickupPoint ? "Needs a pickup point" : undefined}
                  >
                    {`${s.name} (${s.code})`}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </MessageField>
        <MessageInput
          path="PickupPoint"
          label="Pickup point"
          hint="Only for services that deliver to a pickup point."
          messages={at("PickupPoint")}
          autoComplete="off"
        />
      </Section>
      <Section title="Recipient">
        <MessageInput path="Recipient.Name" label="Name" messages={at("Recipient.Name")} autoComplete="off" />
        <MessageInput
          path="Recipient.Company"
          label="Company (optional)"
          messages={at("Recipient.Company")}
          autoComplete="off"
        />
        <MessageInput path="Recipient.Street" label="Street" messages={at("Recipient.Street")} autoComplete="off" />
        <MessageInput path="Recipient.City" label="City" messages={at("Recipient.City")} autoComplete="off" />
        <MessageInput
          path="Recipient.Zip"
          label="Zip"
          hint="e.g. 110 00 for CZ, 10115 for DE"
          messages={at("Recipient.Zip")}
          autoComplete="off"
        />
        <MessageInput
          path="Recipient.Country"
          label="Country"
          hint="ISO code, e.g. CZ"
          maxLength={2}
          className="uppercase"
          messages={at("Recipient.Country")}
          autoComplete="off"
        />
        <MessageInput
          path="Recipient.Email"
          label="Email"
          type="email"
          messages={at("Recipient.Email")}
          autoComplete="off"
        />
        <MessageInput
          path="Recipient.Phone"
          label="Phone"
          hint="+ and 7 to 15 digits"
          type="tel"
          messages={at("Recipient.Phone")}
          autoComplete="off"
        />
      </Section>
      <fieldset className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        <legend className="float-left mb-4 w-full text-base font-semibold text-slate-900">Parcels</legend>
        <ol className="clear-both space-y-4">
          {parcels.map((key, i) => (
            <li key={key} className="flex items-start gap-3">
              <div className="w-full max-w-xs">
                <MessageInput
                  path={`Parcels[${i}].Weight`}
                  label={`Parcel ${i + 1} weight (kg)`}
                  inputMode="decimal"
                  messages={at(`Parcels[${i}].Weight`)}
                  autoComplete="off"
                />
              </div>
              {parcels.length > 1 ? (
                <Button
                  variant="danger-ghost"
                  size="sm"
                  className="mt-7"
                  aria-label={`Remove parcel ${i + 1}`}
                  onClick={() => changeParcels(parcels.filter((k) => k !== key))}
                >
                  <Trash2 aria-hidden className="size-4" />
                </Button>
              ) : null}
            </li>
          ))}
        </ol>
        <Button
          variant="secondary"
          size="sm"
          className="mt-4"
          disabled={parcels.length >= MAX_PARCELS}
          onClick={() => changeParcels([...parcels, nextParcel.current++])}
        >
          <Plus aria-hidden className="size-4" />
          Add parcel
        </Button>
      </fieldset>
      <Section title="Cash on delivery">
        <MessageInput
          path="CodPrice"
          label="Amount (optional)"
          hint="Leave empty when the recipient does not pay on delivery."
          inputMode="decimal"
          messages={at("CodPrice")}
          autoComplete="off"
        />
        <MessageField path="CodCurrency" label="Currency" messages={at("CodCurrency")}>
          {(a11y) => (
            <Select value={codCurrency} onValueChange={setCodCurrency}>
              <SelectTrigger {...a11y} />
              <SelectContent>
                <SelectItem value={NO_CURRENCY}>None</SelectItem>
                {courier.codCurrencies.map((c) => (
                  <SelectItem key={c} value={c}>
                    {c}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </MessageField>
      </Section>
      <Button type="submit" disabled={validate.isPending}>
        {validate.isPending ? <Spinner /> : <ClipboardCheck aria-hidden className="size-4" />}
        Validate order
      </Button>
    </form>
  );
}
