import { describeMqttShard } from "../../support/fuzz/mqtt-fuzz.js";

/** The second, fourth, sixth … request kind of src/sync/topics.ts: see support/mqtt-fuzz.ts. */
describeMqttShard(1, 2);
