"use client";

import { ClipboardCheck, PackagePlus, Plus, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { Fragment, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { withAccount } from "@/lib/account";
import { Button } from "@/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import type { CourierCapabilities } from "@/server/couriers/adapter";
import { api } from "@/trpc/react";
import { buildOrder, formValues } from "@/lib/order-form/build-order";
import { Input } from "@/components/ui/input";
import type { ValidationMessage } from "@/lib/validation-message";
import { MessageField, MessageInput } from "./message-field";
import { isRecord, mergeDraft } from "@/lib/order-form/order-draft";
import {
  fieldsFor,
  hintFor,
  inputPath,
  inputPaths,
  parcelKey,
  type OrderField,
  type OrderSection,
} from "@/lib/order-form/order-fields";
import { placeMessages } from "@/lib/order-form/order-paths";
import { CourierRefusal, ValidationFailure, ValidationSummary, validationOf } from "./validation-summary";
import { fieldId, fieldLabel } from "@/lib/order-form/order-paths";
import type { Suggestion } from "@/lib/order-form/suggestions";
import {
  ChoosePickupPoint,
  DIRECTORY_COURIERS,
  type OrderContext,
} from "@/components/pickup-points/choose-pickup-point";
import { ApplySuggestion } from "./suggestion-buttons";

// Radix Select items cannot have an empty value; these stand for "not given".
const BUILT_IN = "__api_default__";
const PROFILE_DEFAULT = "__profile_default__";
const NO_CURRENCY = "__none__";
const MAX_PARCELS = 20;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <legend className="float-left mb-4 w-full text-base font-semibold text-slate-900">{title}</legend>
      <div className="clear-both grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

/** What the form starts from: an order as it was sent (a refused attempt, a validation result), or nothing. */
function startingValues(
  initial: unknown,
  fields: readonly OrderField[],
  sources: { id: string; referenceSource: string; sourceIdentifier: string }[],
) {
  const order = isRecord(initial) ? initial : {};
  const parcelCount =
    Array.isArray(order.Parcels) && order.Parcels.length > 0 ? Math.min(order.Parcels.length, MAX_PARCELS) : 1;
  const values = formValues(order, fields, parcelCount);
  const source = sources.find(
    (s) => s.referenceSource === order.ReferenceSource && s.sourceIdentifier === order.SourceIdentifier,
  );
  return {
    /** An input's starting text, by its name (`Parcels[1].Weight` for the original's second parcel). */
    text: (name: string) => values.get(name),
    parcelCount,
    sourceId: source?.id ?? BUILT_IN,
    service: typeof order.Service === "string" && order.Service ? order.Service : PROFILE_DEFAULT,
    codCurrency: typeof order.CodCurrency === "string" && order.CodCurrency ? order.CodCurrency : NO_CURRENCY,
  };
}

/** One text, number, email or phone input of the list, named by its path. */
function ListInput({
  field,
  name,
  label,
  hint,
  defaultValue,
  messages,
}: {
  field: OrderField;
  name: string;
  label: string;
  hint: string | undefined;
  defaultValue: string | undefined;
  messages: ValidationMessage[];
}) {
  return (
    <MessageInput
      path={name}
      defaultValue={defaultValue}
      label={label}
      hint={hint}
      type={field.kind === "email" || field.kind === "tel" ? field.kind : undefined}
      inputMode={field.kind === "number" ? "decimal" : undefined}
      maxLength={field.maxLength}
      className={field.uppercase ? "uppercase" : undefined}
      messages={messages}
      autoComplete="off"
    />
  );
}

/**
 * The common fields of one order, validated by the server with each message shown at the input it names.
 * With `canCreate` it also creates the order, through the same create as the REST API; `initial` fills it
 * with an order as it was sent, and fields the form has no input for are sent on unchanged.
 */
export function OrderForm({
  accountId,
  courier,
  profileId,
  initial,
  canCreate = false,
}: {
  accountId: string;
  courier: CourierCapabilities;
  profileId: string | null;
  initial?: unknown;
  canCreate?: boolean;
}) {
  const [sources] = api.sources.list.useSuspenseQuery({ accountId });
  // The fields the courier uses; the rest of `initial` is sent on unchanged (mergeDraft).
  const fields = fieldsFor(courier);
  const [start] = useState(() => startingValues(initial, fields, sources.items));
  const [parcels, setParcels] = useState<number[]>(() => Array.from({ length: start.parcelCount }, (_, i) => i));
  const nextParcel = useRef(start.parcelCount);
  const [sourceId, setSourceId] = useState(start.sourceId);
  const [service, setService] = useState(start.service);
  const [codCurrency, setCodCurrency] = useState(start.codCurrency);
  const summary = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const [pickupPoint, setPickupPoint] = useState(start.text("PickupPoint") ?? "");
  const [chosenPoint, setChosenPoint] = useState<string | null>(null);
  const router = useRouter();
  const utils = api.useUtils();
  const validate = api.shippingOrders.validate.useMutation();
  const create = api.shippingOrders.create.useMutation({
    onSuccess: async (answer) => {
      await Promise.all([
        utils.shippingOrders.list.invalidate(),
        utils.refusedAttempts.list.invalidate(),
        utils.overview.get.invalidate(),
      ]);
      const created = answer.items[0];
      if (!created) return;
      toast.success(
        `Order ${created.referenceNumber} created${created.replaced ? ", replacing the previous one" : ""}`,
      );
      router.push(withAccount(`/dashboard/orders/${created.id}`, accountId));
    },
  });
  const createValidation = validationOf(create.error);
  const validated = validate.data && !Array.isArray(validate.data) ? validate.data : null;
  const response = validated ?? (createValidation && !Array.isArray(createValidation) ? createValidation : null);
  const refusal = create.data?.failed[0] ?? null;
  const failure = validate.error ?? (createValidation ? null : create.error);
  const placed = placeMessages(response?.messages ?? [], new Set(inputPaths(fields, parcels.length)));
  const at = placed.at;
  const pending = validate.isPending || create.isPending;

  // Every answer (or refusal) moves focus to the summary, so a screen reader hears the verdict first.
  useEffect(() => {
    if (validate.data || validate.error || create.error || refusal) summary.current?.focus();
  }, [validate.data, validate.error, create.error, refusal]);

  function changeParcels(next: number[]) {
    // Messages name parcels by position; once positions change they would point at the wrong parcel.
    validate.reset();
    create.reset();
    setParcels(next);
  }

  // A directory to choose from: the courier keeps one, and the service (or the profile's default) delivers to a point.
  const chosenService = courier.services.find((s) => s.code === service);
  const canChoosePoint =
    DIRECTORY_COURIERS.includes(courier.id) &&
    (chosenService ? chosenService.requiresPickupPoint : courier.services.some((s) => s.requiresPickupPoint));

  /** What the order says so far, to narrow the picker: the recipient's country and town, the heaviest parcel, COD. */
  function orderContext(): OrderContext {
    const data = form.current ? new FormData(form.current) : new FormData();
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const weights = parcels.map((_, i) => Number(text(`Parcels[${i}].Weight`).replace(",", "."))).filter((w) => w > 0);
    const country = text("Recipient.Country").toUpperCase();
    return {
      country: /^[A-Z]{2}$/.test(country) ? country : undefined,
      place: text("Recipient.City") || text("Recipient.Zip") || undefined,
      weightKg: weights.length ? Math.max(...weights) : undefined,
      cod: Number(text("CodPrice").replace(",", ".")) > 0 || undefined,
    };
  }

  /** A suggestion's one-click fix: its value into the field it is for, then focus there to validate again. */
  function applySuggestion(path: string, suggestion: Suggestion) {
    if (path === "Service") setService(suggestion.value);
    else if (path === "CodCurrency") setCodCurrency(suggestion.value);
    else if (path === "PickupPoint") {
      setPickupPoint(suggestion.value);
      setChosenPoint(suggestion.text);
    } else {
      const input = document.getElementById(fieldId(path));
      if (input instanceof HTMLInputElement) input.value = suggestion.value;
    }
    document.getElementById(fieldId(path))?.focus();
    toast.success(`${fieldLabel(path)} set to ${suggestion.value}. Validate again to check it.`);
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const source = sources.items.find((s) => s.id === sourceId) ?? null;
    const built = buildOrder(new FormData(event.currentTarget), {
      parcelCount: parcels.length,
      source,
      service: service === PROFILE_DEFAULT ? "" : service,
      codCurrency: codCurrency === NO_CURRENCY ? "" : codCurrency,
      fields,
    });
    // Each parcel over the original it started from (its key, for those the order came with), not its position.
    const origins = parcels.map((key) => (key < start.parcelCount ? key : undefined));
    const body = mergeDraft(
      initial,
      built,
      fields.map((f) => f.path),
      origins,
    );
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const input = { accountId, courierId: courier.id, profileId, body };
    // One answer on screen at a time: the other button's result would contradict it.
    if (canCreate && submitter?.getAttribute("value") === "create") {
      validate.reset();
      create.mutate(input);
    } else {
      create.reset();
      validate.mutate(input);
    }
  }

  /** The input or select of one field (not a parcel's), by the path of its input. */
  function renderField(field: OrderField): React.ReactNode {
    const path = inputPath(field);
    const hint = hintFor(field, courier.id);
    if (path === "SourcePair")
      return (
        <MessageField path="SourcePair" label={field.label} hint={hint} messages={at("SourcePair")}>
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
      );
    if (path === "Service")
      return (
        <MessageField path="Service" label={field.label} hint={hint} messages={at("Service")}>
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
      );
    if (path === "CodCurrency")
      return (
        <MessageField path="CodCurrency" label={field.label} hint={hint} messages={at("CodCurrency")}>
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
      );
    if (path === "PickupPoint")
      return (
        <MessageField
          path="PickupPoint"
          label={field.label}
          hint={
            chosenPoint
              ? `Chosen: ${chosenPoint}`
              : canChoosePoint
                ? "The point's id; choose it from the courier's directory."
                : "Only for services that deliver to a pickup point."
          }
          messages={at("PickupPoint")}
        >
          {(a11y) => (
            <div className="flex gap-2">
              <Input
                name="PickupPoint"
                {...a11y}
                value={pickupPoint}
                onChange={(event) => {
                  setPickupPoint(event.target.value);
                  setChosenPoint(null);
                }}
                autoComplete="off"
              />
              {canChoosePoint ? (
                <ChoosePickupPoint
                  accountId={accountId}
                  courier={courier.id}
                  selectedId={pickupPoint}
                  orderContext={orderContext}
                  onChoose={(point) => {
                    setPickupPoint(point.id);
                    setChosenPoint(`${point.name}, ${point.street}, ${point.city}`);
                  }}
                />
              ) : null}
            </div>
          )}
        </MessageField>
      );
    return (
      <ListInput
        field={field}
        name={path}
        label={field.label}
        hint={hint}
        defaultValue={start.text(path)}
        messages={at(path)}
      />
    );
  }

  // The list's fields by section, in the list's order; one input per input path (both halves of the source pair).
  const sections: [OrderSection, OrderField[]][] = [];
  for (const field of fields) {
    const section =
      sections.find(([title]) => title === field.section) ?? sections[sections.push([field.section, []]) - 1]!;
    if (!section[1].some((f) => inputPath(f) === inputPath(field))) section[1].push(field);
  }

  // Suggestion buttons anywhere in the form (at a field, in the summary) apply through this.
  const content = (
    <form
      ref={form}
      onSubmit={submit}
      noValidate
      aria-label={canCreate ? "New order" : "Order to validate"}
      className="space-y-6"
    >
      {failure ? (
        <ValidationFailure ref={summary} error={failure} />
      ) : refusal ? (
        <CourierRefusal ref={summary} refusal={refusal} accountId={accountId} />
      ) : response ? (
        <ValidationSummary ref={summary} response={response} placed={placed} created={Boolean(createValidation)} />
      ) : null}
      {sections.map(([title, sectionFields]) =>
        title === "Parcels" ? (
          <fieldset key={title} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
            <legend className="float-left mb-4 w-full text-base font-semibold text-slate-900">Parcels</legend>
            <ol className="clear-both space-y-4">
              {parcels.map((key, i) => (
                <li key={key} className="flex items-start gap-3">
                  <div className="grid w-full gap-4 sm:grid-cols-2 lg:grid-cols-3">
                    {sectionFields.map((field) => (
                      <ListInput
                        key={field.path}
                        field={field}
                        name={`Parcels[${i}].${parcelKey(field)}`}
                        label={`Parcel ${i + 1} ${field.label}`}
                        hint={hintFor(field, courier.id)}
                        defaultValue={start.text(`Parcels[${key}].${parcelKey(field)}`)}
                        messages={at(`Parcels[${i}].${parcelKey(field)}`)}
                      />
                    ))}
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
        ) : (
          <Section key={title} title={title}>
            {sectionFields.map((field) => (
              <Fragment key={inputPath(field)}>{renderField(field)}</Fragment>
            ))}
          </Section>
        ),
      )}
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          name="action"
          value="validate"
          variant={canCreate ? "secondary" : undefined}
          disabled={pending}
        >
          {validate.isPending ? <Spinner /> : <ClipboardCheck aria-hidden className="size-4" />}
          Validate order
        </Button>
        {canCreate ? (
          <Button type="submit" name="action" value="create" disabled={pending}>
            {create.isPending ? <Spinner /> : <PackagePlus aria-hidden className="size-4" />}
            Create order
          </Button>
        ) : null}
      </div>
    </form>
  );
  return <ApplySuggestion value={applySuggestion}>{content}</ApplySuggestion>;
}
