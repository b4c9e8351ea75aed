import type { ShipmentRequest } from "@/server/couriers/adapter";
import type { OrderRequest } from "../shipping-orders/order-request";

/** A validated order as a courier's adapter sees it: every field the partner sent that a courier may map. */
export function toShipmentRequest(order: OrderRequest, service: string): ShipmentRequest {
  const r = order.Recipient;
  return {
    referenceNumber: order.ReferenceNumber,
    externalReference: order.ExternalReference ?? null,
    service,
    note: order.Note ?? null,
    pickupPoint: order.PickupPoint ?? null,
    recipient: {
      name: r.Name,
      company: r.Company ?? null,
      street: r.Street,
      city: r.City,
      zip: r.Zip,
      country: r.Country,
      email: r.Email ?? null,
      phone: r.Phone ?? null,
    },
    parcels: order.Parcels.map((p) => ({
      weight: p.Weight,
      length: p.Length ?? null,
      width: p.Width ?? null,
      height: p.Height ?? null,
      reference: p.Reference ?? null,
    })),
    codPrice: order.CodPrice ?? null,
    codCurrency: order.CodPrice === undefined ? null : (order.CodCurrency ?? null),
    variableSymbol: order.VariableSymbol ?? null,
    insurancePrice: order.InsurancePrice ?? null,
  };
}
