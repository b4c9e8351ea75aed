import { describe, expect, it } from "vitest";
import { normalisePhone, PHONE_PATTERN_PROBLEM } from "./phone";

const ANOTHER_COUNTRY = "a number of another country needs + and its country code";

describe("normalisePhone: Recipient.Phone read by the recipient's country, answered in E.164", () => {
  it.each([
    // Czech shops collect the 9-digit national form.
    ["777123456", "CZ", "+420777123456"],
    ["777 123 456", "CZ", "+420777123456"],
    ["777-123-456", "CZ", "+420777123456"],
    [" 777 123 456 ", "CZ", "+420777123456"],
    ["221 123 456", "CZ", "+420221123456"],
    ["00420777123456", "CZ", "+420777123456"],
    ["00420 777 123 456", "CZ", "+420777123456"],
    ["+420 777 123 456", "CZ", "+420777123456"],
    ["+420777123456", "CZ", "+420777123456"],
    [" +420 777 123 456 ", "CZ", "+420777123456"],
    ["+420 (777) 123-456", "CZ", "+420777123456"],
    // Slovak numbers: the national form with its trunk 0 or without, 00421, +421.
    ["0912 345 678", "SK", "+421912345678"],
    ["02 2222 3333", "SK", "+421222223333"],
    ["912 345 678", "SK", "+421912345678"],
    ["00421 912 345 678", "SK", "+421912345678"],
    ["+421 912 345 678", "SK", "+421912345678"],
    // With + a number of any country is kept, whatever the recipient's country.
    ["+421 912 345 678", "CZ", "+421912345678"],
    ["+420 777 123 456", "SK", "+420777123456"],
    ["+49 (30) 123-456", "CZ", "+4930123456"],
    ["+44 20 7946 0958", "SK", "+442079460958"],
    // 00 is an international prefix where the recipient lives: a Czech number dialled from Slovakia.
    ["00420 777 123 456", "SK", "+420777123456"],
  ])("%j for %s → %s", (text, country, e164) => {
    expect(normalisePhone(text, country)).toEqual({ ok: true, e164 });
  });

  it.each([
    // A Czech number given for a Slovak recipient is read as Slovak, and no Slovak number starts with 777.
    ["777 123 456", "SK", `is not a valid phone number of SK; ${ANOTHER_COUNTRY}`],
    ["77712345", "CZ", `is too short for a phone number of CZ; ${ANOTHER_COUNTRY}`],
    ["912 345 67", "SK", `is not a valid phone number of SK; ${ANOTHER_COUNTRY}`],
    ["91234", "SK", `is too short for a phone number of SK; ${ANOTHER_COUNTRY}`],
    ["0912 345 678 9", "SK", `is too long for a phone number of SK; ${ANOTHER_COUNTRY}`],
    ["777 123 4567 890", "CZ", `is too long for a phone number of CZ; ${ANOTHER_COUNTRY}`],
    ["7771234567", "CZ", `is not a valid phone number of CZ; ${ANOTHER_COUNTRY}`],
    ["123 456 789", "CZ", `is not a valid phone number of CZ; ${ANOTHER_COUNTRY}`],
    ["+420 777 123 4567", "CZ", "is not a valid phone number of CZ"],
    // Of the right length and shape, but in no range of the country's numbering plan.
    ["+420 999 123 456", "CZ", "is not a valid phone number of CZ"],
    ["02 1234 5678", "SK", `is not a valid phone number of SK; ${ANOTHER_COUNTRY}`],
    ["+420 777 12", "SK", "is too short for a phone number of CZ"],
    ["+1234567", "CZ", "is too short for a phone number of +1"],
    ["+1234567890123456", "CZ", "is too long for a phone number of +1"],
    ["+999 123 456 789", "CZ", "does not start with a known country calling code after +"],
    // A national number needs a country with a numbering plan to be read by.
    [
      "777 123 456",
      null,
      "is a national number, read by Recipient.Country, which is not valid; give a valid country, or the number with + and its country code",
    ],
    [
      "777 123 456",
      "AQ",
      "is a national number, and AQ has no numbering plan to read it by; give it with + and its country code",
    ],
    // Letters, a second +, other separators, too few or too many digits: refused before any country is read.
    ["777 12a 456", "CZ", PHONE_PATTERN_PROBLEM],
    ["+420 777 123 456 ext 12", "CZ", PHONE_PATTERN_PROBLEM],
    ["1-800-FLOWERS", "US", PHONE_PATTERN_PROBLEM],
    ["++420777123456", "CZ", PHONE_PATTERN_PROBLEM],
    ["(+420) 777 123 456", "CZ", PHONE_PATTERN_PROBLEM],
    ["+420.777.123.456", "CZ", PHONE_PATTERN_PROBLEM],
    ["777", "CZ", PHONE_PATTERN_PROBLEM],
    ["004207771234567890", "CZ", PHONE_PATTERN_PROBLEM],
  ])("%j for %s → %s", (text, country, problem) => {
    expect(normalisePhone(text, country)).toEqual({ ok: false, problem });
  });
});
