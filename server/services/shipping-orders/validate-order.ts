import type { CourierCapabilities } from "@/server/couriers/adapter";
import { DEFAULT_REFERENCE_SOURCE, DEFAULT_SOURCE_IDENTIFIER } from "../sources/schemas";
import { canonicalOrder, orderRequestSchema, type OrderRequest } from "./order-request";
import { error, type ValidationMessage } from "@/lib/validation-message";
import { messagesFromZod, statusOf, type ValidationResponse } from "./validation-messages";

export type ValidatedOrder = {
  /** The order after canonical names, trimming and defaults; null when the schema refused it. */
  order: OrderRequest | null;
  referenceSource: string;
  sourceIdentifier: string;
  service: string | null;
  response: ValidationResponse;
};

/** What the courier profile decides for validation. */
export type ProfileDefaults = { service: string | null };

/**
 * Validates one order against the contract's field rules and the courier's capabilities. Pure: the
 * source-pair lookup (422) and duplicates across a batch are decided by the callers.
 */
export function validateOrder(raw: unknown, courier: CourierCapabilities, profile: ProfileDefaults): ValidatedOrder {
  const input = canonicalOrder(raw);
  const parsed = orderRequestSchema.safeParse(input);
  const messages: ValidationMessage[] = parsed.success ? [] : messagesFromZod(parsed.error, input);
  const order = parsed.success ? parsed.data : null;

  const rec = (input ?? {}) as Record<string, unknown>;
  const referenceNumber =
    typeof rec.ReferenceNumber === "string" && rec.ReferenceNumber.trim() ? rec.ReferenceNumber.trim() : null;
  const source = sourcePair(rec);

  // Courier rules run on whatever parsed, so a partner sees every problem of an order at once.
  const service =
    (typeof rec.Service === "string" && rec.Service.trim()) || profile.service || courier.services[0]?.code || null;
  const serviceInfo = courier.services.find((s) => s.code === service);
  if (service && !serviceInfo) {
    messages.push(
      error(
        "UNSUPPORTED_SERVICE",
        "Service",
        `Service ${service} is not offered by ${courier.name}; use one of ${courier.services.map((s) => s.code).join(", ")}`,
      ),
    );
  }
  if (serviceInfo?.requiresPickupPoint && !(typeof rec.PickupPoint === "string" && rec.PickupPoint.trim())) {
    messages.push(error("REQUIRED", "PickupPoint", `PickupPoint is required by the ${serviceInfo.code} service`));
  }
  const recipient = (rec.Recipient ?? {}) as Record<string, unknown>;
  const country = typeof recipient.Country === "string" ? recipient.Country.trim().toUpperCase() : null;
  if (
    country &&
    /^[A-Z]{2}$/.test(country) &&
    !courier.countries.includes(country) &&
    !messages.some((m) => m.field === "Recipient.Country")
  ) {
    messages.push(error("UNSUPPORTED_COUNTRY", "Recipient.Country", `${courier.name} does not deliver to ${country}`));
  }
  if (Array.isArray(rec.Parcels)) {
    rec.Parcels.forEach((p, i) => {
      const weight = (p as Record<string, unknown> | null)?.Weight;
      if (typeof weight === "number" && weight > courier.maxParcelWeightKg) {
        messages.push(
          error(
            "WEIGHT_LIMIT_EXCEEDED",
            `Parcels[${i}].Weight`,
            `Parcels[${i}].Weight ${weight} kg exceeds the ${courier.maxParcelWeightKg} kg limit of ${courier.name}`,
          ),
        );
      }
    });
  }
  if (rec.CodPrice !== undefined && rec.CodPrice !== null) {
    const currency = typeof rec.CodCurrency === "string" ? rec.CodCurrency.trim().toUpperCase() : "";
    if (courier.codCurrencies.length === 0) {
      messages.push(error("COD_NOT_SUPPORTED", "CodPrice", `${courier.name} does not offer cash on delivery`));
    } else if (currency && /^[A-Z]{3}$/.test(currency) && !courier.codCurrencies.includes(currency)) {
      messages.push(
        error(
          "COD_NOT_SUPPORTED",
          "CodCurrency",
          `${courier.name} collects cash on delivery only in ${courier.codCurrencies.join(", ")}`,
        ),
      );
    }
  }
  const hasContact = [recipient.Email, recipient.Phone].some((v) => typeof v === "string" && v.trim() !== "");
  if (!hasContact) {
    messages.push({
      code: "NO_RECIPIENT_CONTACT",
      severity: "WARNING",
      field: "Recipient.Email",
      message: "Neither Recipient.Email nor Recipient.Phone is given; the courier cannot notify the recipient",
    });
  }
  return {
    order,
    referenceSource: source.referenceSource,
    sourceIdentifier: source.sourceIdentifier,
    service,
    response: { status: statusOf(messages), referenceNumber, messages },
  };
}

/** The pair an order names: blank or absent parts mean `api`/`default`; an incomplete pair stays as given. */
function sourcePair(rec: Record<string, unknown>): { referenceSource: string; sourceIdentifier: string } {
  const text = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
  const referenceSource = text(rec.ReferenceSource);
  const sourceIdentifier = text(rec.SourceIdentifier);
  if (referenceSource === null && sourceIdentifier === null) {
    return { referenceSource: DEFAULT_REFERENCE_SOURCE, sourceIdentifier: DEFAULT_SOURCE_IDENTIFIER };
  }
  return { referenceSource: referenceSource ?? "", sourceIdentifier: sourceIdentifier ?? "" };
}

/** Marks every repeat of a (ReferenceNumber, source pair) within one request. */
export function markDuplicatesInRequest(orders: ValidatedOrder[]): void {
  const seen = new Set<string>();
  for (const o of orders) {
    const ref = o.response.referenceNumber;
    if (!ref) continue;
    const key = JSON.stringify([ref, o.referenceSource, o.sourceIdentifier]);
    if (seen.has(key)) {
      o.response.messages.push(
        error(
          "DUPLICATE_IN_REQUEST",
          "ReferenceNumber",
          `ReferenceNumber ${ref} appears more than once in this request for the same source pair`,
        ),
      );
      o.response.status = statusOf(o.response.messages);
    }
    seen.add(key);
  }
}
