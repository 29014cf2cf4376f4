// Types of rabbitmq-cluster.mjs for the TypeScript tests that start a cluster (test/system/fleet/).
export const RABBITMQ_SERVER: string;
export function hasRabbitmq(): boolean;
export interface RabbitNode {
  /** `rabbitN@localhost` */
  name: string;
  mqttUrl: string;
  amqpUrl: string;
  pid(): number | undefined;
  running(): boolean;
  start(timeoutMs?: number): Promise<void>;
  /** SIGTERM: a clean stop. */
  stop(): Promise<void>;
  /** SIGKILL to the node's process group. */
  kill(): Promise<void>;
}
export interface RabbitCluster {
  /** The temp folder: each node's config, data and `log/` (removed by `stop`). */
  dir: string;
  nodes: RabbitNode[];
  mqttUrls: string[];
  amqpUrls: string[];
  runningNodes(i?: number): string[];
  stop(): Promise<void>;
}
export function startRabbitCluster(opts?: {
  nodes?: number;
  cookie?: string;
  nice?: number;
  parent?: string;
}): Promise<RabbitCluster>;
