import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import { ok, pickBody, pickLine, SR, seedItem } from "../../support/station.js";

/**
 * An OLPN the agent's own label cannot carry as a barcode is refused at create, naming the line's
 * field, only when the agent prints the labels (docs/decisions.md#olpn-length-on-the-agents-label).
 */
let station: TestAgent;
let external: TestAgent;

beforeAll(async () => {
  station = await startTestAgent({
    ppsId: "7",
    printing: { mode: "station", printer: "file", dir: tempDir("pps-edge-olpn-") },
  });
  external = await startTestAgent({ ppsId: "8" });
  await seedItem(station, "PK");
  await seedItem(external, "PK");
});
afterAll(async () => {
  await station?.close();
  await external?.close();
});

const order = (id: string, olpn: string) =>
  pickBody(id, [
    pickLine(`${id}-1`, "PK", 1, { shipping_address: "Jane Roe", order_number: "O-1" }),
    pickLine(`${id}-2`, "PK", 1, { packing_box_id: olpn }),
  ]);

async function refusal(t: TestAgent, id: string, olpn: string) {
  const res = await t.call("POST", SR, order(id, olpn));
  const body = (await res.json()) as { code: string; errors: Array<{ path: string; message: string }> };
  return { status: res.status, ...body };
}

describe("the OLPN at create", () => {
  it("refuses a non-ASCII OLPN with station printing: a 400 naming the line's packing_box_id", async () => {
    const r = await refusal(station, "O1", "KARTON-Ż-001");
    expect(r.status).toBe(400);
    expect(r.code).toBe("validation_failed");
    expect(r.errors).toEqual([
      {
        path: "serviceRequests.1.attributes.packing_box_id",
        message: expect.stringMatching(
          /^the OLPN 'KARTON-Ż-001' holds 'Ż' \(U\+017B\).*printable ASCII only/,
        ),
      },
    ]);
    // nothing was written
    expect((await station.call("GET", `${SR}/O1`)).status).toBe(404);
  });

  it("refuses an OLPN longer than the label carries, and says the limit", async () => {
    const r = await refusal(station, "O2", "KARTON-0000000000000001");
    expect(r.status).toBe(400);
    expect(r.errors[0]?.path).toBe("serviceRequests.1.attributes.packing_box_id");
    expect(r.errors[0]?.message).toMatch(/at most 16 characters, or 30 digits/);
  });

  it("accepts the longest OLPNs the label carries: 16 characters, 30 digits, an SSCC-18", async () => {
    await ok(station.call("POST", SR, order("O3", "KARTON-000000001")));
    await ok(station.call("POST", SR, order("O4", "1".repeat(30))));
    await ok(station.call("POST", SR, order("O5", "034567890123456786")));
  });

  it("refuses the same on a modify, naming the modified line; nothing changed", async () => {
    await ok(station.call("POST", SR, order("O6", "BOX-6")));
    const res = await station.call("POST", `${SR}/modify`, {
      externalServiceRequestId: "O6",
      type: "PICK",
      serviceRequests: [{ externalServiceRequestId: "O6-2", attributes: { packing_box_id: "ŻÓŁW-1" } }],
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Array<{ path: string; message: string }> };
    expect(body.errors[0]?.path).toBe("serviceRequests.0.attributes.packing_box_id");
    expect(body.errors[0]?.message).toMatch(/holds 'Ż' \(U\+017B\)/);
    const after = (await ok(station.call("GET", `${SR}/O6?type=PICK`))) as {
      serviceRequests: Array<{ attributes: Record<string, unknown> | null }>;
    };
    expect(after.serviceRequests[1]?.attributes).toEqual({ packing_box_id: "BOX-6" });
  });

  it("leaves the OLPN to central with external printing", async () => {
    await ok(external.call("POST", SR, order("O1", "KARTON-Ż-001")));
    await ok(external.call("POST", SR, order("O2", "KARTON-0000000000000001")));
  });
});
