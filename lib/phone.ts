import {
  getCountryCallingCode,
  isSupportedCountry,
  ParseError,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
  type CountryCode,
  type PhoneNumber,
} from "libphonenumber-js/max";

/**
 * The recipient's phone (contract: `Recipient.Phone`): international with `+`, or national for the recipient's
 * country (`777 123 456` or `00420 777 123 456` for CZ); a valid number of its country, answered in E.164
 * (`+420777123456`). The one rule of the API, the dashboard's order form and the OpenAPI document.
 *
 * The full ("max") metadata, not the library's smaller default: that one checks a country's number length and
 * its broadest pattern only, so numbers of ranges that do not exist pass (`+420 999 123 456`, SK `02 1234 5678`).
 * It costs the browser nothing: the form imports only `PHONE_HINT`, and the library is free of side effects.
 */

/**
 * What a phone may look like before its country is read: digits after an optional leading `+`, spaces, hyphens
 * and parentheses between them. 4 to 17 digits: no number is shorter, and `00` with E.164's 15 is the longest way to
 * write one. The OpenAPI document's pattern of `Recipient.Phone`.
 */
export const PHONE_PATTERN = /^\s*\+?(?:[\s()-]*\d){4,17}[\s()-]*$/;

export const PHONE_PATTERN_PROBLEM =
  "must be 4 to 17 digits, national for Recipient.Country or after + and the country code (777 123 456, " +
  "+420 777 123 456); spaces, hyphens and parentheses may separate them";

/** The order form's hint at the phone input. */
export const PHONE_HINT = "National for the recipient's country (777 123 456), or + and the country code";

export type PhoneReading = { ok: true; e164: string } | { ok: false; problem: string };

const ANOTHER_COUNTRY = "a number of another country needs + and its country code";

/**
 * Reads a phone as the recipient's courier would dial it: with `+` as an international number (of any country, kept
 * as it is), without it as dialled in `country` (its trunk prefix, `00` and its other international prefixes read as
 * they are there). `country` is the recipient's ISO 3166-1 alpha-2 code, or null when the order has no valid one.
 */
export function normalisePhone(text: string, country: string | null): PhoneReading {
  if (!PHONE_PATTERN.test(text)) return { ok: false, problem: PHONE_PATTERN_PROBLEM };
  const international = text.includes("+");
  const home: CountryCode | null = country !== null && isSupportedCountry(country) ? country : null;
  if (!international && home === null) {
    return {
      ok: false,
      problem:
        country === null
          ? "is a national number, read by Recipient.Country, which is not valid; give a valid country, or the number with + and its country code"
          : `is a national number, and ${country} has no numbering plan to read it by; give it with + and its country code`,
    };
  }
  const dialledIn = international ? undefined : (home ?? undefined);
  // The library takes no whitespace before a leading +.
  const trimmed = text.trim();
  let phone: PhoneNumber;
  try {
    phone = parsePhoneNumberWithError(trimmed, { defaultCountry: dialledIn, extract: false });
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    return { ok: false, problem: parseProblem(e.message) };
  }
  if (phone.isValid()) return { ok: true, e164: phone.number };
  const where = phone.country ?? `+${phone.countryCallingCode}`;
  const readAsHome = !international && home !== null && phone.countryCallingCode === getCountryCallingCode(home);
  const length = validatePhoneNumberLength(trimmed, { defaultCountry: dialledIn });
  const why =
    length === "TOO_SHORT"
      ? `is too short for a phone number of ${where}`
      : length === "TOO_LONG"
        ? `is too long for a phone number of ${where}`
        : `is not a valid phone number of ${where}`;
  return { ok: false, problem: readAsHome ? `${why}; ${ANOTHER_COUNTRY}` : why };
}

/** The library's parse errors (`ParseError.message` is one of these codes) in the contract's words. */
function parseProblem(code: string): string {
  switch (code) {
    case "INVALID_COUNTRY":
      return "does not start with a known country calling code after +";
    case "TOO_SHORT":
      return "is too short for a phone number";
    case "TOO_LONG":
      return "is too long for a phone number";
    default:
      return PHONE_PATTERN_PROBLEM;
  }
}
