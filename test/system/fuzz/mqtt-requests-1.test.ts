import { describeMqttShard } from "../../support/fuzz/mqtt-fuzz.js";

/** The first, third, fifth … request kind of src/sync/topics.ts: see support/mqtt-fuzz.ts. */
describeMqttShard(0, 2);
