import { describeShard } from "../../support/fuzz/http-shard.js";

/** Every fourth route from the second of the registry: see support/http-shard.ts. */
await describeShard(1);
