import { describe, expect, it } from "vitest";
import { exchangeOf, queueOf, routingKeyOf, topicOfKey } from "../src/rabbitmq-topology.js";
import { parseTopic } from "../src/topics.js";

describe("MQTT topics and RabbitMQ routing keys", () => {
  it("swap `/` and `.` as the MQTT plugin does, both ways", () => {
    expect(routingKeyOf("ppsedge/v1/dc1/7/notification")).toBe("ppsedge.v1.dc1.7.notification");
    // a dot inside an id (allowed by the agent's topics) becomes a slash, and comes back
    expect(routingKeyOf("ppsedge/v1/dc.1/7.2/notification")).toBe("ppsedge.v1.dc/1.7/2.notification");
    expect(topicOfKey("ppsedge.v1.dc/1.7/2.notification")).toBe("ppsedge/v1/dc.1/7.2/notification");
  });

  it("a routing key read back names the station and the kind", () => {
    expect(parseTopic(topicOfKey("ppsedge.v1.dc1.7.response.replay_notifications"))).toEqual({
      station: "dc1/7",
      kind: "response/replay_notifications",
    });
  });

  it("name the exchange and the partition queues per site", () => {
    expect(exchangeOf("dc1")).toBe("ppsedge.notifications.dc1");
    expect(queueOf("dc1", 3)).toBe("ppsedge.notifications.dc1.3");
  });
});
