import { describeShard } from "../../support/fuzz/http-shard.js";

/** Every fourth route from the first of the registry: see support/http-shard.ts. */
await describeShard(0);
