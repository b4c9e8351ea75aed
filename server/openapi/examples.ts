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
    Phone: "+420 777 123 456",
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

const allPermissions = [
  "shipping-orders:read",
  "shipping-orders:write",
  "shipping-orders:validate",
  "labels:read",
  "configurations:read",
  "events:read",
];

export const apiKey = {
  id: API_KEY_ID,
  name: "E-shop integration",
  key: "svc_****r2lH",
  created: "2026-11-21T23:52:17.097",
  lastUsed: "2026-11-22T08:14:03.512",
  permissions: allPermissions,
  preventDuplicateOrders: false,
  rateLimitPerMinute: 600,
};

export const createdApiKey = {
  id: API_KEY_ID,
  name: "E-shop integration",
  key: "svc_7QmZt2Lk9VbX4nRw8YpC3sHd6JfG1aEo5UiK0r2lH",
  created: "2026-11-21T23:52:17.097",
  permissions: allPermissions,
  preventDuplicateOrders: false,
  rateLimitPerMinute: 600,
};

export const source = { id: SOURCE_ID, referenceSource: "shoptet", sourceIdentifier: "eshop-1", name: "Main e-shop" };
