import { readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parsePacketaXml } from "./client";

/** One request the fake received: the operation and its parsed body. */
export type PacketaRequest = { operation: string; body: Record<string, unknown>; xml: string };

/** How the fake answers: normally, refusing the packet, refusing the password, 500, never, or refusing a cancel. */
export type PacketaMode = "ok" | "refuse" | "5xx" | "hang" | "cancel-not-allowed";

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8").trim();

/**
 * A fake of Packeta's REST API on 127.0.0.1, built from its specification and answering with the fixtures: tests,
 * the e2e set-up and the bench point `COURIER_PACKETA_URL` at it. It records every request, counts the calls in
 * flight, and can be told to refuse, fail, hang or answer slowly (`delayMs`).
 */
export async function startFakePacketa(options: { password: string; delayMs?: number }) {
  let mode: PacketaMode = "ok";
  let delayMs = options.delayMs ?? 0;
  let nextId = 4012345678;
  let inFlight = 0;
  const state = { maxInFlight: 0 };
  const requests: PacketaRequest[] = [];
  const statuses = new Map<string, number>();
  const hanging = new Set<ServerResponse>();

  const ok = (result: string) => `<response><status>ok</status><result>${result}</result></response>`;
  const answer = (operation: string, body: Record<string, unknown>): string => {
    if (body.apiPassword !== options.password) return fixture("incorrect-api-password.response.xml");
    switch (operation) {
      case "createPacket": {
        if (mode === "refuse") return fixture("packet-attributes-fault.response.xml");
        const id = String(nextId++);
        statuses.set(id, 1);
        return fixture("create-packet.response.xml")
          .replace("<id>4012345678</id>", `<id>${id}</id>`)
          .replace("<barcode>Z4012345678</barcode>", `<barcode>Z${id}</barcode>`);
      }
      case "cancelPacket":
        if (mode === "cancel-not-allowed")
          return "<response><status>fault</status><fault>CancelNotAllowedFault</fault><string>The packet cannot be cancelled any more.</string></response>";
        statuses.set(String(body.packetId), 11);
        return ok("");
      case "packetStatus": {
        const id = String(body.packetId);
        if (!statuses.has(id))
          return "<response><status>fault</status><fault>PacketIdFault</fault><string>Unknown packet.</string></response>";
        return fixture("packet-status.response.xml").replace(
          "<statusCode>5</statusCode>",
          `<statusCode>${statuses.get(id)}</statusCode>`,
        );
      }
      case "packetLabelPdf":
      case "packetsLabelsPdf":
        return ok(Buffer.from(`%PDF-1.4 fake Packeta label ${String(body.format)}`).toString("base64"));
      case "packetLabelZpl":
        return ok(`^XA^FDPacket ${String(body.packetId)} at ${String(body.dpi)} dpi^FS^XZ`);
      case "senderGetReturnRouting":
        return ok("<routingSegment>Z 123</routingSegment><routingSegment>4321</routingSegment>");
      default:
        return "<response><status>fault</status><fault>UnknownOperationFault</fault><string>Unknown operation.</string></response>";
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const xml = Buffer.concat(chunks).toString("utf8");
      const parsed = parsePacketaXml(xml) as Record<string, Record<string, unknown>>;
      const operation = Object.keys(parsed)[0] ?? "";
      const body = parsed[operation] ?? {};
      requests.push({ operation, body, xml });
      if (mode === "hang") {
        hanging.add(res);
        return;
      }
      inFlight += 1;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        if (mode === "5xx") res.writeHead(503).end("Service Unavailable");
        else res.writeHead(200, { "content-type": "application/xml" }).end(answer(operation, body));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/rest`,
    requests,
    state,
    setMode: (m: PacketaMode) => (mode = m),
    setDelay: (ms: number) => (delayMs = ms),
    setStatus: (packetId: string, code: number) => statuses.set(packetId, code),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
