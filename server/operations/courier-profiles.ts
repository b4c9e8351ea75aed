import { operation } from "@/server/http/operation";
import {
  CourierProfile,
  CourierProfileCheck,
  CourierProfileList,
  CreateCourierProfileRequest,
  UpdateCourierProfileRequest,
} from "@/server/openapi/components";
import { ACCOUNT_ID, courierProfile, PROFILE_ID } from "@/server/openapi/examples";
import {
  CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE,
  CHECKS_PER_PROFILE_PER_MINUTE,
  checkRefusals,
} from "@/server/services/courier-profiles/check-courier-profile";
import {
  PROFILES_PER_COURIER,
  profileRefusals,
  updateCourierProfileInput,
} from "@/server/services/courier-profiles/schemas";
import { REQUEST_COSTS } from "@/server/services/rate-limits/request-costs";
import { rateLimited } from "@/server/services/rate-limits/take-tokens";
import { parseInput } from "@/server/validation";

import { accountQuery, answer, idParams, jsonBody, thrown } from "./shared";

const TAG = "Private: courier profiles";
const profileParams = idParams("courier profile", PROFILE_ID);
const unknownService = ["Unknown service", profileRefusals.unknownService("sandbox", "OVERNIGHT")] as const;

export const listCourierProfilesOp = operation({
  method: "get",
  path: "/api/v2/private/courier-profiles",
  operationId: "listCourierProfiles",
  tag: TAG,
  summary: "List courier profiles",
  description: "The account's courier profiles: per courier, the default first, then by name.",
  auth: "accessToken",
  query: accountQuery,
  responses: {
    200: answer("The profiles.", CourierProfileList, {
      profiles: ["One sandbox profile", { items: [courierProfile] }],
    }),
  },
});

export const createCourierProfileOp = operation({
  method: "post",
  path: "/api/v2/private/courier-profiles",
  operationId: "createCourierProfile",
  tag: TAG,
  summary: "Create a courier profile",
  description:
    "Creates a profile for a courier: its default service and courier settings. An account's first profile for a courier becomes its default; " +
    "`isDefault: true` takes the default over from the previous one. " +
    `An account has at most ${PROFILES_PER_COURIER} profiles of one courier (archived ones not counted): 409 beyond.`,
  auth: "accessToken",
  body: jsonBody(CreateCourierProfileRequest, {
    sandbox: [
      "A sandbox profile",
      {
        accountId: ACCOUNT_ID,
        courier: "sandbox",
        name: "Sandbox",
        service: "STANDARD",
        settings: { timeoutMs: 10000 },
      },
    ],
    express: [
      "A second profile, made the default",
      { accountId: ACCOUNT_ID, courier: "sandbox", name: "Express", service: "EXPRESS", isDefault: true },
    ],
  }),
  responses: { 201: answer("The new profile.", CourierProfile, { created: ["Created", courierProfile] }) },
  errors: {
    400: {
      examples: { courier: ["Unknown courier", profileRefusals.unknownCourier("dhl-xyz")], service: unknownService },
    },
    409: {
      description: `The account has ${PROFILES_PER_COURIER} profiles of this courier already; delete one first.`,
      examples: { tooMany: ["Too many profiles of the courier", profileRefusals.tooMany("packeta")] },
    },
  },
});

export const updateCourierProfileOp = operation({
  method: "patch",
  path: "/api/v2/private/courier-profiles/{id}",
  operationId: "updateCourierProfile",
  tag: TAG,
  summary: "Change a courier profile",
  description:
    "Renames a profile or changes its default service or settings (replaced as a whole); fields not given stay. Orders already " +
    "created keep what they were created with. Make a profile the default by creating it with `isDefault: true` or in the dashboard.",
  auth: "accessToken",
  params: profileParams,
  notFound: "Courier profile",
  body: jsonBody(
    UpdateCourierProfileRequest,
    {
      rename: ["Rename", { name: "Sandbox (warehouse 2)" }],
      settings: ["A longer courier timeout", { settings: { timeoutMs: 20000 } }],
    },
    { service: ["Another default service", { service: "EXPRESS" }] },
  ),
  responses: {
    200: answer("The changed profile.", CourierProfile, {
      updated: ["Renamed", { ...courierProfile, name: "Sandbox (warehouse 2)" }],
    }),
  },
  errors: {
    400: {
      examples: {
        empty: ["Nothing to change", thrown(() => parseInput(updateCourierProfileInput, {}))],
        service: unknownService,
      },
    },
  },
});

export const deleteCourierProfileOp = operation({
  method: "delete",
  path: "/api/v2/private/courier-profiles/{id}",
  operationId: "deleteCourierProfile",
  tag: TAG,
  summary: "Delete a courier profile",
  description:
    "Deletes a profile no order used. A profile orders used (live, deleted or replaced) is archived instead: it leaves the lists, " +
    "`?profile=` with it answers 404, and its orders keep tracking and can still be deleted. A default profile hands the default " +
    "to the courier's oldest remaining profile. Afterwards the id answers 404.",
  auth: "accessToken",
  params: profileParams,
  notFound: "Courier profile",
  responses: { 204: { description: "Deleted, or archived when orders used it." } },
});

export const checkCourierProfileOp = operation({
  method: "post",
  path: "/api/v2/private/courier-profiles/{id}/check",
  operationId: "checkCourierProfile",
  tag: TAG,
  summary: "Check a profile's courier credentials",
  description:
    "Asks the courier whether the profile's credentials work, with its cheapest authenticated call (Packeta: the sender's " +
    "return routing, which also proves `sender` exists; PPL: an access token, the one cached for the profile's calls while " +
    "it is valid; the sandbox: always yes). The courier's refusal is an answer, not an error: 200 `{ ok: false, code, message }` " +
    "with the courier's words. Any member of the account may check (nothing changes). A check counts " +
    `${REQUEST_COSTS.courierCheck} requests against the user's limit and the account's ceiling (as the dashboard's ` +
    `expensive calls do), and there are at most ${CHECKS_PER_PROFILE_PER_MINUTE} checks a minute per profile and ` +
    `${CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE} of an account's profiles of one courier, whoever asks (a courier may ` +
    "lock an account after a burst of refused logins). Past any: 429 before the courier is asked, `Retry-After` says " +
    "when, and nothing is counted. Takes at most the profile's courier timeout.",
  auth: "accessToken",
  params: profileParams,
  notFound: "Courier profile",
  responses: {
    200: answer("What the courier said.", CourierProfileCheck, {
      ok: ["Credentials work", { ok: true }],
      refused: [
        "Credentials refused",
        {
          ok: false,
          code: "COURIER_AUTH_FAILED",
          message: "Packeta refused the API password: Incorrect API password.",
        },
      ],
    }),
  },
  errors: {
    429: {
      description:
        `More than ${CHECKS_PER_PROFILE_PER_MINUTE} checks of the profile, or ${CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE} ` +
        "of the account's profiles of its courier, a minute; or the user's or the account's rate limit is exhausted. " +
        "`Retry-After` says when to try again.",
      examples: {
        throttled: [
          "Too many checks of the profile",
          rateLimited(
            {
              allowed: false,
              limit: CHECKS_PER_PROFILE_PER_MINUTE,
              remaining: 0,
              resetSeconds: 60,
              retryAfterSeconds: 10,
            },
            checkRefusals.profile,
          ),
        ] as const,
        courier: [
          "Too many checks of the account's profiles of one courier",
          rateLimited(
            {
              allowed: false,
              limit: CHECKS_PER_ACCOUNT_COURIER_PER_MINUTE,
              remaining: 0,
              resetSeconds: 60,
              retryAfterSeconds: 5,
            },
            checkRefusals.accountCourier("packeta"),
          ),
        ] as const,
      },
    },
  },
});

export const operations = [
  listCourierProfilesOp,
  createCourierProfileOp,
  updateCourierProfileOp,
  deleteCourierProfileOp,
  checkCourierProfileOp,
];
