import { operation } from "@/server/http/operation";
import { AuditEventPage } from "@/server/openapi/components";
import { API_KEY_ID, pageOf } from "@/server/openapi/examples";
import { membersCannotAudit } from "@/server/services/audit/list-audit-events";
import { answer, pagedAccountQuery } from "./shared";

export const listAuditEventsOp = operation({
  method: "get",
  path: "/api/v2/private/audit-events",
  operationId: "listAuditEvents",
  tag: "Private: audit trail",
  summary: "List audit events",
  description:
    "The account's audit trail, newest first: who changed keys, sources and courier profiles, and who signed in, when and from which address. " +
    "Only owners (and staff) may read it (members → 403), since it shows who did what from where.",
  auth: "accessToken",
  query: pagedAccountQuery,
  responses: {
    200: answer("A page of events.", AuditEventPage, {
      events: [
        "A key created",
        pageOf([
          {
            id: "0b6f2d9e-3c1a-4e8b-9f7d-5a2c4e6b8d10",
            action: "api_key.created",
            actor: "owner@example.com",
            targetId: API_KEY_ID,
            details: { name: "E-shop integration" },
            ip: "203.0.113.7",
            created: "2026-11-21T23:52:17.097",
          },
        ]),
      ],
    }),
  },
  errors: {
    403: {
      description: "The user is a member, not an owner, of the account.",
      examples: { member: ["Member, not owner", membersCannotAudit()] },
    },
  },
});

export const operations = [listAuditEventsOp];
