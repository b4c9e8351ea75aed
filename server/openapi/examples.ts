import { API_KEY_PERMISSIONS } from "@/lib/api-key-permissions";
import { ORDER_EVENT_TYPES } from "@/lib/event-types";

/**
 * Example values shared by several operations. Each is checked against its schema by the tests, so an
 * example cannot drift from what the API accepts and answers.
 */

export const ORDER_ID = "99eaae0e-9af8-4583-90fd-b9de1c8f5840";
export const PROFILE_ID = "07112afc-489b-4701-8a92-cdf6ef12de72";
export const ACCOUNT_ID = "5b8e2f64-0c1d-4e7a-9f3b-2a6c8d4e1f90";
export const API_KEY_ID = "96d24f99-5472-4a1f-8886-39f3be7bcfd1";
export const SOURCE_ID = "c3a9d7e2-4b1f-4c8a-8e6d-1f2a3b4c5d6e";

export const orderRequest = {
  ReferenceNumber: "ORDER-1001",
  ExternalReference: "INV-2026-0042",
  Recipient: {
    Name: "Jana Nováková",
    Street: "Dlouhá 12",
    City: "Praha",
    Zip: "110 00",
    Country: "CZ",
    Email: "jana@example.com",
    Phone: "777 123 456",
  },
  Parcels: [{ Weight: 1.2, Length: 30, Width: 20, Height: 10 }, { Weight: 2 }],
  CodPrice: 499.9,
  CodCurrency: "CZK",
  VariableSymbol: "20260042",
  Note: "Ring twice",
};

export const minimalOrderRequest = {
  ReferenceNumber: "ORDER-1002",
  Recipient: {
    Name: "Max Mustermann",
    Street: "Hauptstraße 5",
    City: "Berlin",
    Zip: "10115",
    Country: "DE",
    Phone: "+4930123456",
  },
  Parcels: [{ Weight: 0.8 }],
};

export const sourcedOrderRequest = {
  ...minimalOrderRequest,
  ReferenceNumber: "ORDER-1003",
  ReferenceSource: "shoptet",
  SourceIdentifier: "eshop-1",
};

export const shippingOrder = {
  id: ORDER_ID,
  referenceNumber: "ORDER-1001",
  externalReference: "INV-2026-0042",
  referenceSource: "api",
  sourceIdentifier: "default",
  courier: "sandbox",
  courierProfile: PROFILE_ID,
  service: "STANDARD",
  status: "CREATED",
  shippingNumber: ["SBX0000000001", "SBX0000000002"],
  created: "2026-11-21T23:52:17",
  codPrice: 499.9,
  codCurrency: "CZK",
  variableSymbol: "20260042",
  insurancePrice: null,
  note: "Ring twice",
  pickupPoint: null,
  recipient: {
    name: "Jana Nováková",
    company: null,
    street: "Dlouhá 12",
    city: "Praha",
    zip: "110 00",
    country: "CZ",
    email: "jana@example.com",
    phone: "+420777123456",
  },
  parcels: [
    { weight: 1.2, length: 30, width: 20, height: 10, reference: null, shippingNumber: "SBX0000000001" },
    { weight: 2, length: null, width: null, height: null, reference: null, shippingNumber: "SBX0000000002" },
  ],
  shipmentTracking: {
    status: "CREATED",
    trackingUrl: "https://sandbox-courier.example/track/SBX0000000001",
    updated: "2026-11-21T23:52:17",
    events: [
      {
        time: "2026-11-21T23:52:17",
        status: "CREATED",
        description: "Shipment data received from the sender",
        location: null,
      },
    ],
  },
  labelUrl: `https://shipping.example.com/api/v2/shipping-orders/${ORDER_ID}/label`,
};

export const courierProfile = {
  id: PROFILE_ID,
  courier: "sandbox",
  name: "Sandbox",
  service: "STANDARD",
  isDefault: true,
  settings: { timeoutMs: 10000 },
};

export const apiKey = {
  id: API_KEY_ID,
  name: "E-shop integration",
  key: "svc_****r2lH",
  kind: "secret",
  allowedOrigins: [],
  created: "2026-11-21T23:52:17.097",
  lastUsed: "2026-11-22T08:14:03.512",
  permissions: [...API_KEY_PERMISSIONS],
  preventDuplicateOrders: false,
  rateLimitPerMinute: 600,
};

const { lastUsed: _lastUsed, ...shownOnCreate } = apiKey;
export const createdApiKey = { ...shownOnCreate, key: "svc_7QmZt2Lk9VbX4nRw8YpC3sHd6JfG1aEo5UiK0r2lH" };

/** The checkout widget's key: pickup-point search only, from its origins. */
export const createdPublishableKey = {
  ...createdApiKey,
  name: "Checkout widget",
  key: "svc_pk_Xw3Lq8Rt1Zb6Nc0Vm5Kj2Hg7Fd4Sa9Pe3Ou6Iy1Tr8E",
  kind: "publishable",
  allowedOrigins: ["https://shop.example"],
  permissions: [],
};

export const source = { id: SOURCE_ID, referenceSource: "shoptet", sourceIdentifier: "eshop-1", name: "Main e-shop" };

/** The paging envelope around `items`, as the first page of a list answers it. */
export const pageOf = (items: unknown[]) => ({
  page: 1,
  pageSize: 20,
  totalPages: items.length ? 1 : 0,
  nextPage: false,
  previousPage: false,
  itemsCount: items.length,
  items,
});

export const warningResult = {
  status: "WARNING",
  referenceNumber: "ORDER-1004",
  messages: [
    {
      code: "NO_RECIPIENT_CONTACT",
      severity: "WARNING",
      field: "Recipient.Email",
      message: "Neither Recipient.Email nor Recipient.Phone is given; the courier cannot notify the recipient",
    },
  ],
};

export const errorResult = {
  status: "ERROR",
  referenceNumber: "ORDER-1005",
  messages: [
    { code: "REQUIRED", severity: "ERROR", field: "Recipient.Name", message: "Recipient.Name is required" },
    {
      code: "INVALID_FORMAT",
      severity: "ERROR",
      field: "Recipient.Zip",
      message: "Recipient.Zip must look like 110 00 or 11000 for CZ",
    },
    {
      code: "WEIGHT_LIMIT_EXCEEDED",
      severity: "ERROR",
      field: "Parcels[0].Weight",
      message: "Parcels[0].Weight 40 kg exceeds the 31.5 kg limit of Sandbox courier",
    },
  ],
};

/** A Packeta order whose pickup point is closed, with the nearest open points that would accept it. */
export const pickupPointResult = {
  status: "ERROR",
  referenceNumber: "ORDER-1006",
  messages: [
    {
      code: "PICKUP_POINT_CLOSED",
      severity: "ERROR",
      field: "PickupPoint",
      message: "Pickup point 4321 (Praha 1, Dlouhá 12 (Trafika)) is closed or not accepting parcels",
      suggestions: [
        { value: "4388", text: "Praha 1, Rybná 5 (Potraviny), Rybná 5, 110 00 Praha (0.3 km)" },
        { value: "10471", text: "Z-BOX Praha, Revoluční 8, Revoluční 8, 110 00 Praha (0.6 km)" },
        { value: "5120", text: "Praha 1, Templová 2 (Papírnictví), Templová 2, 110 00 Praha (0.9 km)" },
      ],
    },
  ],
};

export const ENDPOINT_ID = "0f5a2c1e-7d3b-4e8f-9a6c-2b1d4e7f8a90";
export const EVENT_ID = "4a7e9c2d-1b3f-4d5e-8f6a-7b8c9d0e1f2a";
export const DELIVERY_ID = "b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e";
export const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5nJ8Ns3aGR8=";

export const statusChangedEvent = {
  id: EVENT_ID,
  type: "shipping_order.status_changed",
  created: "2026-11-22T08:14:03.512",
  referenceSource: "api",
  sourceIdentifier: "default",
  data: {
    shippingOrder: {
      ...shippingOrder,
      status: "HANDED_OVER",
      shipmentTracking: { ...shippingOrder.shipmentTracking, status: "HANDED_OVER" },
    },
    previousStatus: "CREATED",
  },
};

export const createdEvent = {
  id: "5b8f0d3e-2c4a-4e6f-9a7b-8c9d0e1f2a3b",
  type: "shipping_order.created",
  created: "2026-11-21T23:52:17.097",
  referenceSource: "api",
  sourceIdentifier: "default",
  data: { shippingOrder, replaced: null },
};

export const webhookEndpoint = {
  id: ENDPOINT_ID,
  url: "https://erp.example.com/hooks/shipping",
  description: "ERP order sync",
  eventTypes: [...ORDER_EVENT_TYPES],
  sources: [{ referenceSource: "shoptet", sourceIdentifier: "eshop-1" }],
  enabled: true,
  disabledReason: null,
  created: "2026-11-22T08:00:00.000",
  lastSuccess: "2026-11-22T08:14:04.020",
  failureStreak: 0,
};

export const webhookDelivery = {
  id: DELIVERY_ID,
  eventId: EVENT_ID,
  eventType: "shipping_order.status_changed",
  attempts: 2,
  status: "pending",
  responseStatus: 503,
  durationMs: 412,
  created: "2026-11-22T08:14:03.512",
  nextAttempt: "2026-11-22T08:19:04.100",
  lastError: null,
};
