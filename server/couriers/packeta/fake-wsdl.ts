import type { AttributeFault } from "./client";

/*
 * What Packeta's WSDL (`PacketAttributes` in packeta.wsdl, the specification the fake is built from) refuses in a
 * packet's attributes, as the `AttributeFault`s of a `PacketAttributesFault`: one per attribute at fault, named as the
 * WSDL names it. The fake refuses a packet with these before any other rule, so a mapping that a real Packeta would
 * refuse fails the tests that run against the fake.
 */

type Rule =
  | { kind: "string"; maxLength?: number; length?: number; pattern?: RegExp }
  | { kind: "unsignedInt" }
  | { kind: "decimal"; fractionDigits: number }
  | { kind: "date" }
  | { kind: "size" }
  /** A complex element the connector never sends: only its presence is allowed (its content is not checked). */
  | { kind: "complex" };

const string = (maxLength: number): Rule => ({ kind: "string", maxLength });

/**
 * `PacketAttributes` (an `xsd:all`): each element, its type's restriction, and whether it is required (neither
 * `nillable` nor `minOccurs="0"`). `string16` … `string64`, `phone` (20), `zip` (255) are `maxLength`s; `currency` is
 * `length` 3; `email` the pattern `|.*@.*\..*`; `money` and `weight` are `xsd:decimal` with `fractionDigits` 2 and 3.
 */
const ELEMENTS: Record<string, { rule: Rule; required?: true }> = {
  id: { rule: { kind: "string" } },
  affiliateId: { rule: string(16) },
  number: { rule: string(24), required: true },
  name: { rule: string(32), required: true },
  surname: { rule: string(32), required: true },
  company: { rule: string(32) },
  email: { rule: { kind: "string", pattern: /^(|.*@.*\..*)$/s } },
  phone: { rule: string(20) },
  addressId: { rule: { kind: "unsignedInt" }, required: true },
  cod: { rule: { kind: "decimal", fractionDigits: 2 } },
  currency: { rule: { kind: "string", length: 3 } },
  value: { rule: { kind: "decimal", fractionDigits: 2 }, required: true },
  weight: { rule: { kind: "decimal", fractionDigits: 3 }, required: true },
  eshop: { rule: string(64) },
  adultContent: { rule: { kind: "unsignedInt" } },
  deliverOn: { rule: { kind: "date" } },
  note: { rule: { kind: "string" } },
  street: { rule: string(64) },
  houseNumber: { rule: string(16) },
  city: { rule: string(32) },
  province: { rule: string(32) },
  zip: { rule: string(255) },
  dispatchOrder: { rule: { kind: "complex" } },
  customerBarcode: { rule: string(32) },
  carrierPickupPoint: { rule: string(64) },
  carrierService: { rule: { kind: "string" } },
  customsDeclaration: { rule: { kind: "complex" } },
  size: { rule: { kind: "size" } },
  attributes: { rule: { kind: "complex" } },
  items: { rule: { kind: "complex" } },
  security: { rule: { kind: "complex" } },
  services: { rule: { kind: "complex" } },
};

const UNSIGNED_INT_MAX = 4_294_967_295;
const isUnsignedInt = (text: string) => /^\+?\d+$/.test(text) && Number(text) <= UNSIGNED_INT_MAX;

/** What is wrong with one value under its rule, or null. */
function faultOf(rule: Rule, value: unknown): string | null {
  if (rule.kind === "complex") return typeof value === "object" && value !== null ? null : "Must be an element.";
  if (rule.kind === "size") {
    const size = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
    const wrong = ["length", "width", "height"].filter((k) => typeof size[k] !== "string" || !isUnsignedInt(size[k]));
    return wrong.length ? `Size needs length, width and height in mm (unsigned integers): ${wrong.join(", ")}.` : null;
  }
  if (typeof value !== "string") return "Must be a single value.";
  // Characters as XSD counts them (code points).
  const length = [...value].length;
  switch (rule.kind) {
    case "string":
      if (rule.length !== undefined && length !== rule.length) return `Must be exactly ${rule.length} characters.`;
      if (rule.maxLength !== undefined && length > rule.maxLength)
        return `Must be at most ${rule.maxLength} characters.`;
      if (rule.pattern && !rule.pattern.test(value)) return "Is not a valid e-mail address.";
      return null;
    case "unsignedInt":
      return isUnsignedInt(value) ? null : "Must be an unsigned integer.";
    case "decimal": {
      const match = /^[+-]?(\d*)(?:\.(\d*))?$/.exec(value);
      if (!match || (match[1] === "" && (match[2] ?? "") === "")) return "Must be a decimal number.";
      const fraction = (match[2] ?? "").replace(/0+$/, "");
      return fraction.length > rule.fractionDigits ? `Must have at most ${rule.fractionDigits} decimal places.` : null;
    }
    case "date":
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? null : "Must be a date (YYYY-MM-DD).";
  }
}

/**
 * The attribute faults of one packet's attributes under the WSDL, in the WSDL's order of elements; empty when the
 * WSDL accepts them. Packeta also requires a `name` that is not empty (its plugin refuses an order without one).
 */
export function wsdlFaultsOf(attributes: Record<string, unknown>): AttributeFault[] {
  const faults: AttributeFault[] = [];
  for (const [name, { rule, required }] of Object.entries(ELEMENTS)) {
    const value = attributes[name];
    if (value === undefined) {
      if (required) faults.push({ name, fault: "Is required." });
      continue;
    }
    const fault = faultOf(rule, value);
    if (fault) faults.push({ name, fault });
    else if (name === "name" && value === "") faults.push({ name, fault: "Is required." });
  }
  for (const name of Object.keys(attributes))
    if (!Object.hasOwn(ELEMENTS, name)) faults.push({ name, fault: "Is not an attribute of a packet." });
  return faults;
}
