import {
  MAX_NAME_ORDERED,
  MAX_SEARCH_WORDS,
  MIN_INDEXED_WORD,
  SEARCH_TIMEOUT_MS,
  searchRefusals,
} from "@/server/services/pickup-points/search-pickup-points";
import { pagingQuery } from "@/server/services/pagination";
import { REQUEST_COSTS } from "@/server/services/rate-limits/request-costs";
import { z } from "zod";
import { POINT_TYPES } from "@/db/schema";
import { notFound } from "@/server/errors";
import { operation, type Header } from "@/server/http/operation";
import { parseQuery } from "@/server/http/query";
import { publishableRefusals } from "@/server/http/publishable-key";
import { noDirectory } from "@/server/services/pickup-points/directory-courier";
import { PickupPoint, PickupPointPage } from "@/server/openapi/components";
import { pageOf } from "@/server/openapi/examples";
import { answer, pagingParams, thrown } from "./shared";

const TAG = "Pickup points";
// A publishable key (the checkout widget's) may call these two, and only these.
const auth = { apiKey: "configurations:read", publishable: true } as const;

const corsHeaders: Record<string, Header> = {
  Vary: {
    description: "`Origin`: the answer depends on the page that asked (CORS).",
    required: true,
    schema: { type: "string", example: "Origin" },
  },
  "Access-Control-Allow-Origin": {
    description: "To a publishable key from one of its `allowedOrigins`: that origin, so the page may read the answer.",
    required: false,
    schema: { type: "string", example: "https://shop.example" },
  },
};

const flag = (name: string) =>
  z.enum(["true", "false"], { error: `${name} must be true or false` }).transform((v) => v === "true");

const number = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,6}(\.\d{1,6})?$/, `${name} must be a number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .gt(min, `${name} must be a number from ${min} to ${max}`)
        .max(max, `${name} must be a number from ${min} to ${max}`),
    );

const NEAR_MESSAGE = "near must be lat,lon in degrees, e.g. 50.0755,14.4378";

/** The search's query string: the route, the tRPC procedure and the OpenAPI document all read this one. */
export const pickupPointQuery = z
  .object({
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, "country must be an ISO 3166-1 alpha-2 code, e.g. CZ")
      .transform((v) => v.toUpperCase())
      .optional()
      .meta({ param: { description: "ISO 3166-1 alpha-2 (case ignored)." }, example: "CZ" }),
    q: z
      .string()
      .trim()
      .min(1, "q must have 1 to 100 characters")
      .max(100, "q must have 1 to 100 characters")
      .optional()
      .meta({
        param: {
          description:
            'Name, street, city or zip; case and accents ignored ("plzen" finds "Plzeň"). Every word must match (AND); ' +
            `a word repeated or inside another ("pra praha") counts once. At most ${MAX_SEARCH_WORDS} different words, ` +
            `and at least one of ${MIN_INDEXED_WORD} or more letters or digits unless \`near\` or \`zip\` is given ` +
            "(shorter words only narrow the matches of the others); otherwise → 400 naming `q`.",
        },
      }),
    zip: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z -]{2,12}$/, "zip must be a postal code, e.g. 110 00")
      .optional()
      .meta({ param: { description: "Exact postal code; spaces ignored." }, example: "110 00" }),
    near: z
      .string()
      // A space after the comma, as people and maps write it, is taken too.
      .regex(/^\s*-?\d{1,3}(\.\d+)?\s*,\s*-?\d{1,3}(\.\d+)?\s*$/, NEAR_MESSAGE)
      .transform((v) => {
        const [lat, lon] = v.split(",").map(Number) as [number, number];
        return { lat, lon };
      })
      .refine(({ lat, lon }) => Math.abs(lat) <= 90 && Math.abs(lon) <= 180, NEAR_MESSAGE)
      .optional()
      .meta({
        type: "string",
        param: { description: "`lat,lon`: only points within `radiusKm`, nearest first, each with `distanceKm`." },
        example: "50.0755,14.4378",
      }),
    radiusKm: number("radiusKm", 0, 100)
      .optional()
      .meta({ type: "number", param: { description: "With `near`: the radius, default 10, at most 100." } }),
    type: z
      .enum(POINT_TYPES, { error: "type must be POINT or LOCKER" })
      .optional()
      .meta({ param: { description: "`POINT` (a staffed point) or `LOCKER`." } }),
    cod: flag("cod")
      .optional()
      .meta({ type: "boolean", param: { description: "`true`: only points where cash on delivery can be paid." } }),
    weightKg: number("weightKg", 0, 1000)
      .optional()
      .meta({ type: "number", param: { description: "Only points that take a parcel of that weight." } }),
    open: flag("open")
      .default(true)
      .meta({
        type: "boolean",
        param: { description: "Default `true`: only points accepting parcels now; `false` lists closed ones too." },
      }),
    ...pagingParams,
    page: pagingQuery.shape.page.meta({
      type: "integer",
      minimum: 1,
      default: 1,
      param: {
        description:
          "The page to return, 1 or more (default 1). A page past the last one (above 1 and above `totalPages`) → 400 " +
          "naming `page`.",
      },
    }),
  })
  .superRefine((query, ctx) => {
    if (query.radiusKm !== undefined && !query.near)
      ctx.addIssue({ code: "custom", path: ["radiusKm"], message: "radiusKm needs near" });
  });

const courierParams = z.object({
  courier_id: z.string().meta({
    param: {
      description:
        "A courier with a pickup-point directory: `packeta` or `ppl`. An unknown courier → 404, and so is one that keeps no directory (`sandbox`).",
    },
    example: "packeta",
  }),
});

const WIDGET_NOTE =
  "A **publishable key** (`svc_pk_…`, the checkout widget's) may call this operation, and no other. It is answered only to " +
  "web pages of its `allowedOrigins`: the answer carries `Access-Control-Allow-Origin` with the request's `Origin` and " +
  "`Vary: Origin`; a request from another origin → 403, and so is one without an `Origin` header (no browser page sent it: " +
  "servers use a secret key), except the widget's own dialog page (a same-origin request, `Sec-Fetch-Site: same-origin`). " +
  "These rules hold against web pages, which cannot forge `Origin` or `Sec-Fetch-Site`; a script outside a browser can " +
  "send any header, so a publishable key is public and its rate limits are what protect it.\n\n" +
  "The CORS preflight (`OPTIONS`) is answered the same for every origin, from no lookup: 204 with " +
  "`Access-Control-Allow-Origin: *`, `Access-Control-Allow-Methods: GET, OPTIONS`, `Access-Control-Allow-Headers: " +
  "Authorization, X-API-Key, X-Request-Id` and `Access-Control-Max-Age: 600` (no credentials: send the key in a header, " +
  "without cookies). It tells nothing about which origins a key lists; the request that follows is checked against its " +
  "own key.\n\n" +
  "Limits, in this order: each client address (an IPv6 client per /64) may make PUBLISHABLE_KEY_ADDRESS_RATE_LIMIT_PER_MINUTE " +
  "(default 120) requests a minute with one publishable key, refused ones included; only a request that passes that, its " +
  "operation and its origin counts against the key's `rateLimitPerMinute` and the account's ceiling, so refused requests " +
  "cost the shop nothing. A 429 to an allowed origin carries its CORS headers, so the page can read it.";

const sampleQuery = (search: string) => thrown(() => parseQuery(pickupPointQuery, new URL(`http://x/?${search}`), []));

const pickupPoint = {
  id: "4321",
  courier: "packeta",
  type: "POINT",
  network: "packeta",
  name: "Praha 1, Dlouhá 12 (Trafika U Mostu)",
  street: "Dlouhá 12",
  city: "Praha",
  zip: "110 00",
  country: "CZ",
  latitude: 50.0902,
  longitude: 14.4253,
  openingHours: [{ day: 1, from: "08:00", to: "18:00" }],
  cod: true,
  cardPayment: true,
  maxWeightKg: 10,
  maxSizeCm: null,
  open: true,
  closedSince: null,
};

const widgetProblems = {
  403: {
    description: "A publishable key from a page outside its `allowedOrigins`, or with no `Origin`.",
    examples: {
      foreignOrigin: ["Another origin", publishableRefusals.foreignOrigin("https://elsewhere.example")],
      noOrigin: ["No Origin header", publishableRefusals.noOrigin()],
    },
  },
  429: {
    examples: {
      address: [
        "A publishable key's limit for one address",
        publishableRefusals.addressExhausted({
          allowed: false,
          limit: 120,
          remaining: 0,
          resetSeconds: 30,
          retryAfterSeconds: 1,
        }),
      ],
    },
  },
} as const;

export const searchPickupPointsOp = operation({
  method: "get",
  path: "/api/v2/couriers/{courier_id}/pickup-points",
  operationId: "searchPickupPoints",
  tag: TAG,
  summary: "Search a courier's pickup points",
  description:
    "Searches the courier's directory of pickup points and lockers, kept in sync from the courier's feeds. Filters combine " +
    "with AND. With `near`, points within `radiusKm` nearest first, each with `distanceKm`; otherwise by name. Closed points " +
    "are left out unless `open=false`. A courier without a directory (`sandbox`) → 404, not an empty list.\n\n" +
    "`itemsCount` is the exact number of matches, however many (`totalPages` and `nextPage` follow it). Decision where " +
    `the contract is silent: a search matching more than ${MAX_NAME_ORDERED} points without \`near\` answers them in the ` +
    "directory's own order (stable from page to page) instead of by name: a picker shows the first pages of the nearest " +
    "or best-named points, and a query matching thousands (a town's name) is narrowed rather than sorted.\n\n" +
    `A secret key's search counts ${REQUEST_COSTS.pickupPointSearch} requests against the key's and the account's rate ` +
    "limits (a point's lookup by id counts one, and so does a request refused with 400 before searching; a `page` past " +
    "the last one is known only once the matches are counted, so it counts as a search). A publishable " +
    "key's search counts one: its shoppers' typing is held per client address first. A search whose " +
    `statements run past ${SEARCH_TIMEOUT_MS} ms is cancelled → 503 with \`Retry-After\`: narrow it.\n\n` +
    WIDGET_NOTE,
  auth,
  params: courierParams,
  query: pickupPointQuery,
  responses: {
    200: answer(
      "A page of points.",
      PickupPointPage,
      {
        page: ["Points near Prague's centre", pageOf([{ ...pickupPoint, distanceKm: 1.62 }])],
        empty: ["Nothing matches", pageOf([])],
      },
      corsHeaders,
    ),
  },
  errors: {
    400: {
      description: "A malformed filter or paging parameter, named in `errors`.",
      examples: {
        near: ["near is not lat,lon", sampleQuery("near=prague")],
        radius: ["radiusKm without near", sampleQuery("radiusKm=5")],
        pageSize: ["pageSize out of range", sampleQuery("pageSize=51")],
        words: ["q of too many different words", searchRefusals.tooManyWords()],
        shortWords: ["q of short words only, without near or zip", searchRefusals.noIndexedWord()],
        page: ["A page past the last one", searchRefusals.pastMatches(1210, 20)],
      },
    },
    403: widgetProblems[403],
    404: {
      description: "An unknown courier, or one that keeps no pickup-point directory.",
      examples: {
        courier: ["Unknown courier", notFound("Courier")],
        noDirectory: ["A courier without pickup points", noDirectory("sandbox")],
      },
    },
    429: widgetProblems[429],
  },
});

export const getPickupPointOp = operation({
  method: "get",
  path: "/api/v2/couriers/{courier_id}/pickup-points/{id}",
  operationId: "getPickupPoint",
  tag: TAG,
  summary: "Get a pickup point",
  description:
    "One point of the courier's directory by the courier's own id (what an order's `PickupPoint` names), closed ones " +
    "included (`open: false`, `closedSince`).\n\n" +
    WIDGET_NOTE,
  auth,
  params: courierParams.extend({
    id: z.string().meta({ param: { description: "The courier's id of the point. Unknown → 404." }, example: "4321" }),
  }),
  responses: { 200: answer("The point.", PickupPoint, { point: ["An open point", pickupPoint] }, corsHeaders) },
  errors: {
    403: widgetProblems[403],
    404: {
      description: "An unknown courier or point, or a courier that keeps no pickup-point directory.",
      examples: {
        point: ["Unknown point", notFound("Pickup point")],
        courier: ["Unknown courier", notFound("Courier")],
        noDirectory: ["A courier without pickup points", noDirectory("sandbox")],
      },
    },
    429: widgetProblems[429],
  },
});

export const operations = [searchPickupPointsOp, getPickupPointOp];
