import { describe, expect, it } from "vitest";
import { z } from "zod";
import { packetaSettings } from "@/server/couriers/packeta/settings";
import { pplSettings } from "@/server/couriers/ppl/settings";
import { describeSettings, initialValues, settingsFields, toSettings, type SettingSpec } from "./profile-settings-form";

// What `courierProfiles.couriers` answers as `settingsSchema`.
const schemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
const packeta = settingsFields(schemaOf(packetaSettings), ["apiPassword"])!;
const ppl = settingsFields(schemaOf(pplSettings), ["clientSecret"])!;
const PASSWORD = "0123456789abcdef0123456789abcdef";

const byName = (fields: SettingSpec[], name: string) => fields.find((f) => f.name === name)!;

describe("settingsFields", () => {
  it("gives each Packeta setting a field of its kind, with a label in words", () => {
    expect(packeta.map((f) => [f.name, f.kind, f.label, f.required])).toEqual([
      ["apiPassword", "string", "API password", true],
      ["sender", "string", "Sender label", true],
      ["homeDeliveryCarriers", "map", "Home-delivery carriers", false],
      ["timeoutMs", "number", "Courier timeout (ms)", false],
    ]);
    expect(byName(packeta, "apiPassword")).toMatchObject({ secret: true, minLength: 32, maxLength: 32 });
    expect(byName(packeta, "apiPassword").hint).toContain("Exactly 32 characters.");
    expect(byName(packeta, "sender").hint).toBe(
      "The e-shop's sender label at Packeta (eshop of each packet). Up to 64 characters.",
    );
    expect(byName(packeta, "homeDeliveryCarriers")).toMatchObject({
      keyLabel: "Country",
      valueLabel: "Carrier ID",
      value: { integer: true, exclusiveMin: 0, max: undefined },
    });
    expect(byName(packeta, "timeoutMs")).toMatchObject({ integer: true, min: 1000, max: 60000 });
  });

  it("renders PPL's environment as a choice", () => {
    expect(byName(ppl, "environment")).toMatchObject({
      kind: "enum",
      options: ["production", "test"],
      required: false,
    });
    expect(byName(ppl, "clientSecret")).toMatchObject({ kind: "string", secret: true, label: "Client secret" });
    expect(byName(ppl, "clientId")).toMatchObject({ secret: false, label: "Client ID" });
  });

  it("answers null for a shape it cannot render, so the form falls back to JSON", () => {
    const nested = { type: "object", properties: { rules: { type: "array", items: { type: "string" } } } };
    expect(settingsFields(nested, [])).toBeNull();
    expect(settingsFields({ type: "string" }, [])).toBeNull();
    expect(settingsFields({ type: "object", properties: {} }, [])).toEqual([]);
  });
});

describe("toSettings", () => {
  it("sends what was filled and leaves out empty optional settings", () => {
    const values = {
      ...initialValues(packeta),
      apiPassword: PASSWORD,
      sender: "  my-shop ",
      homeDeliveryCarriers: [
        { id: 0, key: "cz", value: "106" },
        { id: 1, key: "", value: "" },
      ],
    };
    expect(toSettings(packeta, values)).toEqual({
      settings: { apiPassword: PASSWORD, sender: "my-shop", homeDeliveryCarriers: { CZ: 106 } },
    });
  });

  it("says what is wrong at each input before anything is sent", () => {
    const values = {
      ...initialValues(packeta),
      apiPassword: "short",
      timeoutMs: "50",
      homeDeliveryCarriers: [
        { id: 0, key: "Czechia", value: "106" },
        { id: 1, key: "SK", value: "-1" },
      ],
    };
    expect(toSettings(packeta, values)).toEqual({
      errors: {
        apiPassword: "Exactly 32 characters. This has 5.",
        sender: "Required.",
        "homeDeliveryCarriers[0].key": "Use a two-letter country code, e.g. CZ.",
        "homeDeliveryCarriers[1].value": "Must be a whole number above 0.",
        timeoutMs: "Must be a whole number from 1000 to 60000.",
      },
    });
  });

  it("keeps a saved secret in an edit when its input is left empty, and shows the rest as saved", () => {
    const saved = { apiPassword: "****cdef", sender: "my-shop", homeDeliveryCarriers: { SK: 131 }, timeoutMs: 5000 };
    const values = initialValues(packeta, saved);
    expect(values).toEqual({
      apiPassword: "",
      sender: "my-shop",
      homeDeliveryCarriers: [{ id: 0, key: "SK", value: "131" }],
      timeoutMs: "5000",
    });
    expect(toSettings(packeta, { ...values, timeoutMs: "" }, { keepSecrets: true })).toEqual({
      settings: { sender: "my-shop", homeDeliveryCarriers: { SK: 131 } },
    });
    expect(toSettings(packeta, values)).toMatchObject({ errors: { apiPassword: "Required." } });
  });

  it("sends a chosen PPL environment", () => {
    const values = { ...initialValues(ppl), clientId: "id", clientSecret: "secret", environment: "test" };
    expect(toSettings(ppl, values)).toEqual({
      settings: { clientId: "id", clientSecret: "secret", environment: "test" },
    });
  });
});

it("describes saved settings in words for the profiles list", () => {
  expect(describeSettings(ppl, { clientId: "id", clientSecret: "****cret", environment: "test", extra: 1 })).toEqual([
    { label: "Client ID", value: "id" },
    { label: "Client secret", value: "****cret" },
    { label: "Environment", value: "Test (PPL's sandbox)" },
    { label: "Extra", value: "1" },
  ]);
});
