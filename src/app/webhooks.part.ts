/**
 * The webhook delivery as a part of the agent (docs/webhooks.md): at start the config file's endpoints
 * are written to the database (services/webhooks/), then one loop per enabled endpoint starts; admin
 * changes made in this process restart the changed endpoint's loop at once.
 */
import { isAppError } from "../domain/errors.js";
import { StartError } from "../start-error.js";
import type { WebhookDelivery } from "../webhook-delivery/webhooks.js";
import type { Foundation } from "./foundation.js";
import type { Part } from "./lifecycle.js";

export function webhooksPart(f: Foundation, delivery: WebhookDelivery): Part {
  const { svc, config, log } = f;
  return {
    name: "webhooks",
    async start() {
      try {
        const removed = svc.webhooks.applyConfig(config.webhooks.endpoints ?? []);
        if (removed.length > 0)
          log.warn({ endpoints: removed }, "webhook: endpoints taken out of the config file were removed");
      } catch (err) {
        if (!isAppError(err)) throw err;
        const path = err.errors[0]?.path ?? "webhooks.endpoints";
        throw new StartError(
          err.message,
          path,
          "fix the endpoint in the config file (docs/webhooks.md#safety)",
          {
            cause: err,
          },
        );
      }
      svc.webhooks.onChange(() => {
        delivery.changed().catch((err: unknown) => log.error({ err }, "webhook: could not apply a change"));
      });
      await delivery.start();
    },
    async stop() {
      svc.webhooks.onChange(undefined);
      await delivery.stop();
    },
  };
}
