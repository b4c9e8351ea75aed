import { z } from "zod";
import { operation } from "@/server/http/operation";
import { parseQuery } from "@/server/http/query";
import { Account, AccountList, Statistics, UpdateAccountRequest } from "@/server/openapi/components";
import { ACCOUNT_ID, PROFILE_ID } from "@/server/openapi/examples";
import { updateAccountInput } from "@/server/services/accounts/account-settings";
import { resolvePeriod } from "@/server/services/statistics/query-statistics";
import { statisticsQuery, STATISTICS_ARRAY_PARAMS } from "@/server/services/statistics/schemas";
import { CSV_COLUMNS } from "@/lib/statistics-csv";
import { parseInput } from "@/server/validation";
import { answer, describeParams, jsonBody, thrown } from "./shared";

const query = describeParams(statisticsQuery, {
  from: [
    "The first day counted, `yyyy-MM-dd`, a calendar day in the account's time zone. Default: 29 days before `to`.",
    "2026-11-01",
  ],
  to: [
    "The last day counted (inclusive), `yyyy-MM-dd`. Default: today in the account's time zone (or `from`, if `from` is in the future). " +
      "At most 366 days after `from`; before `from` → 400.",
    "2026-11-30",
  ],
  groupBy: [
    "`day` (default), `week` (Monday to Sunday) or `month`. A week or month is named by its first day, which may lie before `from`; " +
      "only the days from `from` to `to` are counted in it.",
    "week",
  ],
  by: [
    "The keys of each row, one or more of `sourcePair` (ReferenceSource and SourceIdentifier), `courier`, `courierProfile`, repeated or " +
      "comma-separated (default `sourcePair`). The keys not named are null in every row.",
    "sourcePair,courier",
  ],
  referenceSource: ["Only this ReferenceSource (exact, case included).", "shoptet"],
  sourceIdentifier: ["Only this SourceIdentifier (exact).", "eshop-1"],
  courier: ["Only these couriers (ids, repeated or comma-separated).", "sandbox"],
  courierProfile: ["Only these courier profiles (ids, repeated or comma-separated).", PROFILE_ID],
});

const item = {
  period: "2026-11-23",
  referenceSource: "shoptet",
  sourceIdentifier: "eshop-1",
  courier: null,
  courierProfile: null,
  created: 42,
  replaced: 3,
  cancelled: 5,
  refused: 2,
  delivered: 37,
  returned: 1,
  validations: { ok: 40, warning: 4, error: 6 },
  cod: [
    { currency: "CZK", amount: 12480.5 },
    { currency: "EUR", amount: 89.9 },
  ],
};

const csvExample =
  [
    [...CSV_COLUMNS, "codCZK", "codEUR"].join(","),
    "2026-11-23,shoptet,eshop-1,,,42,3,5,2,37,1,40,4,6,12480.50,89.90",
  ].join("\r\n") + "\r\n";

export const getStatisticsOp = operation({
  method: "get",
  path: "/api/v2/statistics",
  operationId: "getStatistics",
  tag: "Statistics",
  summary: "Figures by source pair",
  description:
    "How many orders the account created, replaced and cancelled, how many the courier refused, how many validations were recorded by " +
    "status, how much cash on delivery the orders created still carry per currency, and how many orders were delivered or returned: per period (calendar " +
    "days in the account's time zone, see `GET /private/accounts/{accountId}`) and per source pair, courier or courier profile.\n\n" +
    "- `created`: orders created in the period, replacements included; `replaced`: those among them that replaced an order.\n" +
    "- `cancelled`: orders deleted or replaced in the period (counted on the day it happened, under the order's own keys).\n" +
    "- `refused`: create attempts the courier refused. `validations`: every recorded validation, of validate calls and of each " +
    "order of a create, by status (the `validation_results` records).\n" +
    "- `delivered`/`returned`: orders whose tracking first reached that state in the period (the time of the tracking event), " +
    "counted once the platform has recorded that step (the worker records due tracking steps every minute).\n" +
    "- `cod`: the sum of `CodPrice` of the orders created in the period that still carry it, per `CodCurrency`: an order later " +
    "replaced or deleted no longer counts (its amount leaves the day it was created on, in the same transaction), so three creates " +
    "of one reference count the live one's COD once. Empty when none has COD.\n\n" +
    "Rows are sparse: a period and key combination appears only when something was counted in it, ordered by period, then keys. " +
    "The figures are kept per day as the changes commit (in the same transaction), so an answer counts every change committed before it. " +
    "After the account's time zone changes, its figures are recounted in the background; until that ends, days may still be those of " +
    "the old zone.\n\n" +
    "With `Accept: text/csv` (preferred over `application/json`) the same rows come as CSV: a header line, the keys not grouped by " +
    "empty, and one `cod<CURRENCY>` column per currency that appears. Any other `Accept` answers JSON.",
  auth: { apiKey: "statistics:read" },
  query,
  arrays: STATISTICS_ARRAY_PARAMS,
  responses: {
    200: {
      description: "The figures.",
      content: {
        "application/json": {
          schema: Statistics,
          examples: {
            bySourcePair: [
              "Per day and source pair",
              { from: "2026-11-23", to: "2026-11-23", groupBy: "day", timeZone: "Europe/Prague", items: [item] },
            ],
            byCourierProfile: [
              "Per month and courier profile, nothing counted",
              { from: "2026-10-01", to: "2026-11-30", groupBy: "month", timeZone: "Europe/Prague", items: [] },
            ],
          },
        },
        "text/csv": {
          schema: { type: "string", contentMediaType: "text/csv" },
          examples: { csv: ["The same rows as CSV", csvExample] },
        },
      },
    },
  },
  errors: {
    400: {
      description:
        "A malformed date, `from` after `to`, a period over 366 days, an unknown `groupBy`, `by` or courier.",
      examples: {
        date: [
          "Not a date",
          thrown(() => parseQuery(query, new URL("http://x/?from=2026-02-30"), STATISTICS_ARRAY_PARAMS)),
        ],
        span: [
          "Too long",
          thrown(() => resolvePeriod({ from: "2025-01-01", to: "2026-11-30" }, "Europe/Prague", new Date())),
        ],
        by: ["Unknown key", thrown(() => parseQuery(query, new URL("http://x/?by=shop"), STATISTICS_ARRAY_PARAMS))],
      },
    },
  },
});

const accountParams = z.object({
  accountId: z.uuid().meta({
    param: { description: "The account. One the user does not belong to, unknown or malformed → 404." },
    example: ACCOUNT_ID,
  }),
});

const account = { id: ACCOUNT_ID, name: "Acme e-shop", timeZone: "Europe/Prague" };

export const getAccountOp = operation({
  method: "get",
  path: "/api/v2/private/accounts/{accountId}",
  operationId: "getAccount",
  tag: "Private: accounts",
  summary: "Get an account",
  description: "The account's name and the time zone whose calendar days its statistics count. Members and staff.",
  auth: "accessToken",
  params: accountParams,
  notFound: "Account",
  responses: { 200: answer("The account.", Account, { account: ["An account", account] }) },
});

export const updateAccountOp = operation({
  method: "patch",
  path: "/api/v2/private/accounts/{accountId}",
  operationId: "updateAccount",
  tag: "Private: accounts",
  summary: "Change an account",
  description:
    "Renames the account or sets its time zone (an IANA name such as `Europe/Prague` or `America/New_York`; anything else → 400). " +
    "Owners and staff (a member → 403). A new time zone moves every counted day, so the account's statistics are recounted in the " +
    "background (the dashboard shows the progress); the answer does not wait for it.",
  auth: "accessToken",
  params: accountParams,
  notFound: "Account",
  body: jsonBody(
    UpdateAccountRequest,
    {
      timeZone: ["Another time zone", { timeZone: "Europe/Bratislava" }],
      name: ["Rename", { name: "Acme e-shop s.r.o." }],
    },
    { both: ["Both", { name: "Acme", timeZone: "UTC" }] },
  ),
  responses: {
    200: answer("The changed account.", Account, {
      updated: ["Time zone changed", { ...account, timeZone: "Europe/Bratislava" }],
    }),
  },
  errors: {
    400: {
      examples: {
        timeZone: ["Not a time zone", thrown(() => parseInput(updateAccountInput, { timeZone: "Mars/Olympus" }))],
      },
    },
  },
});

export const listAccountsOp = operation({
  method: "get",
  path: "/api/v2/private/accounts",
  operationId: "listAccounts",
  tag: "Private: accounts",
  summary: "List your accounts",
  description:
    "The accounts the signed-in user belongs to, with their time zones and the user's role: where the `accountId` of the other " +
    "private operations comes from. Not in the original contract; added so an integration can find its account without the dashboard.",
  auth: "accessToken",
  responses: {
    200: answer("The user's accounts.", AccountList, {
      one: ["One account", { items: [{ ...account, role: "owner" }] }],
    }),
  },
});

export const operations = [getStatisticsOp, listAccountsOp, getAccountOp, updateAccountOp];
