import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { environmentVariableNames } from '../../src/config/environment';
import { SHUTDOWN_CLOSE_MS } from '../../src/health/graceful-shutdown.service';
import { TestApp, startTestApp } from '../helpers/test-app';

const ROOT = join(__dirname, '..', '..');
const DEPLOY = join(ROOT, 'deploy');
/** The start's worst case before /health answers: the migration lock (60 s) and the database's 10 connection tries. */
const WORST_START_SECONDS = 60 + 10;

type Manifest = any;

/** Every Kubernetes object of deploy/, by kind. */
function manifests(): Record<string, Manifest[]> {
  const byKind: Record<string, Manifest[]> = {};
  for (const file of readdirSync(DEPLOY).filter((name) => name.endsWith('.yaml'))) {
    for (const document of parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8'))) {
      expect({ file, errors: document.errors }).toEqual({ file, errors: [] });
      const object = document.toJS();
      (byKind[object.kind] ??= []).push(object);
    }
  }
  return byKind;
}

const only = (objects: Manifest[] | undefined, kind: string): Manifest => {
  expect({ kind, count: objects?.length }).toEqual({ kind, count: 1 });
  return objects![0];
};

const envOf = (container: Manifest): Record<string, string | undefined> =>
  Object.fromEntries((container.env as Manifest[]).map((variable) => [variable.name, variable.value]));

/** Metric names a PromQL expression reads: identifiers with an underscore, less PromQL's own functions, quoted text dropped. */
function metricsIn(expression: string): string[] {
  const functions = new Set([
    'histogram_quantile',
    'max_over_time',
    'min_over_time',
    'avg_over_time',
    'clamp_min',
    'clamp_max',
    'label_replace',
  ]);
  const unquoted = expression.replace(/"[^"]*"/g, '');
  return [...new Set(unquoted.match(/[a-zA-Z_:][a-zA-Z0-9_:]*_[a-zA-Z0-9_:]*/g) ?? [])].filter((name) => !functions.has(name));
}

describe('Deployment files', () => {
  const byKind = manifests();
  const deployment = only(byKind.Deployment, 'Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const env = envOf(container);
  let exported: Set<string>;
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
    const text = (await t.get('/metrics')).raw;
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)];
    exported = new Set(
      types.flatMap(([, name, type]) => (type === 'histogram' ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name])),
    );
  });
  afterAll(() => t.close());

  it('should give a start its worst case before liveness may judge it (a startup probe)', () => {
    const { periodSeconds, failureThreshold, httpGet } = container.startupProbe;
    expect(httpGet.path).toBe('/health');
    expect(periodSeconds * failureThreshold).toBeGreaterThan(WORST_START_SECONDS);
    expect(container.livenessProbe.initialDelaySeconds ?? 0).toBe(0);
  });

  it('should drain longer than the readiness probe takes to notice, and give the pod the time to finish', () => {
    const delaySeconds = Number(env.SHUTDOWN_DELAY_MS) / 1000;
    const { periodSeconds, failureThreshold } = container.readinessProbe;
    expect(delaySeconds).toBeGreaterThanOrEqual(periodSeconds * failureThreshold);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(delaySeconds + SHUTDOWN_CLOSE_MS / 1000);
  });

  const jobNamed = (app: string) =>
    only(
      byKind.Job.filter((job) => job.metadata.labels?.app === app),
      `Job ${app}`,
    );

  it('should run the migrations as a Job of the same image, and the pods without them', () => {
    const job = jobNamed('client-registry-migrate');
    const migrate = job.spec.template.spec.containers[0];
    expect(migrate.image).toBe(container.image);
    expect(migrate.args).toEqual(['node', 'dist/migrate.js']);
    expect(env.MIGRATE_ON_START).toBe('false');
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  it('should run the reseal as a Job of the same image, which finishes what it started when stopped', () => {
    const job = jobNamed('client-registry-reseal');
    const reseal = job.spec.template.spec.containers[0];
    expect(reseal.image).toBe(container.image);
    expect(reseal.args).toEqual(['node', 'dist/reseal.js']);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  it('should pin the image to a release, and run pods without an API token, as non-root, with the default seccomp profile', () => {
    expect(byKind.Job).toHaveLength(2);
    for (const spec of [pod, ...byKind.Job.map((job) => job.spec.template.spec)]) {
      expect(spec.containers[0].image).toMatch(/:\d+\.\d+\.\d+$/);
      expect(spec.automountServiceAccountToken).toBe(false);
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(spec.containers[0].securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    }
  });

  it('should set only variables the service reads', () => {
    const known = new Set(environmentVariableNames());
    for (const workload of [deployment, ...byKind.Job]) {
      const names = (workload.spec.template.spec.containers[0].env as Manifest[]).map((variable) => variable.name as string);
      expect(names.filter((name) => !known.has(name))).toEqual([]);
    }
  });

  it('should keep a replica up through a node drain, and scrape every replica', () => {
    const labels = deployment.spec.template.metadata.labels;
    const budget = only(byKind.PodDisruptionBudget, 'PodDisruptionBudget');
    expect(budget.spec.selector.matchLabels).toEqual(labels);
    expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    const service = only(byKind.Service, 'Service');
    const monitor = only(byKind.ServiceMonitor, 'ServiceMonitor');
    expect(service.spec.selector).toEqual(labels);
    expect(monitor.spec.selector.matchLabels).toEqual(service.metadata.labels);
    expect(service.spec.ports.map((port: Manifest) => port.name)).toContain(monitor.spec.endpoints[0].port);
    expect(monitor.spec.endpoints[0].path).toBe('/metrics');
  });

  it('should probe /health and scrape /metrics on the port that serves them: OPS_PORT when set, else PORT', () => {
    const containerPort = (port: number | string): number =>
      typeof port === 'number' ? port : (container.ports as Manifest[]).find((named) => named.name === port)?.containerPort;
    const apiPort = Number(env.PORT ?? 3000);
    const opsPort = env.OPS_PORT === undefined ? apiPort : Number(env.OPS_PORT);
    for (const probe of [container.startupProbe, container.readinessProbe]) {
      expect(probe.httpGet.path).toBe('/health');
      expect(containerPort(probe.httpGet.port)).toBe(opsPort);
    }
    // Liveness asks whether the API's own port answers.
    expect(containerPort(container.livenessProbe.tcpSocket.port)).toBe(apiPort);
    const servicePorts = only(byKind.Service, 'Service').spec.ports as Manifest[];
    const targetOf = (name: string) => containerPort(servicePorts.find((port) => port.name === name)?.targetPort);
    expect(targetOf(only(byKind.ServiceMonitor, 'ServiceMonitor').spec.endpoints[0].port)).toBe(opsPort);
    expect(targetOf('http')).toBe(apiPort);
  });

  it('should alert on errors, latency, the database, the broker, delayed events, pool saturation, rate limiting, key usage not written, unhealthy SMS configurations, clients at a daily limit and ranges suspected of pumping, with metrics the service exports', () => {
    const rules = only(byKind.PrometheusRule, 'PrometheusRule').spec.groups.flatMap((group: Manifest) => group.rules as Manifest[]);
    expect(rules.map((rule: Manifest) => rule.alert).sort()).toEqual(
      [
        'ClientRegistryBrokerDown',
        'ClientRegistryDailyLimitReached',
        'ClientRegistryDatabaseDown',
        'ClientRegistryDatabasePoolSaturated',
        'ClientRegistryErrorRate',
        'ClientRegistryEventsDelayed',
        'ClientRegistryHotPathLatency',
        'ClientRegistryKeyUsageNotWritten',
        'ClientRegistryPumpingBlocked',
        'ClientRegistryPumpingSuspected',
        'ClientRegistryRateLimitRefusals',
        'ClientRegistrySmsConfigUnhealthy',
      ].sort(),
    );
    const byAlert = Object.fromEntries(rules.map((rule: Manifest) => [rule.alert, rule]));
    expect(byAlert.ClientRegistryBrokerDown.for).toBe('5m');
    expect(byAlert.ClientRegistryEventsDelayed.expr.trim()).toBe('max(outbox_oldest_unpublished_age_seconds) > 300');
    expect(byAlert.ClientRegistryErrorRate.expr).toContain('route!="/health"');
    expect(byAlert.ClientRegistryDatabasePoolSaturated.expr).toContain(`>= ${env.DATABASE_POOL_SIZE}`);
    // A range refused for a client in block pages; a suspicion in monitor, which refuses nothing, is a ticket.
    expect(
      [byAlert.ClientRegistryPumpingBlocked, byAlert.ClientRegistryPumpingSuspected].map(({ expr, labels }) => [expr, labels.severity]),
    ).toEqual([
      [expect.stringContaining('dispatch_pumping_suspicions_total{mode="block"}'), 'page'],
      [expect.stringContaining('dispatch_pumping_suspicions_total{mode="monitor"}'), 'ticket'],
    ]);
    const read = rules.flatMap((rule: Manifest) => metricsIn(rule.expr as string));
    expect(read.length).toBeGreaterThanOrEqual(rules.length);
    expect(read.filter((name: string) => !exported.has(name))).toEqual([]);
  });

  it('should build its dashboard on metrics the service exports', () => {
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana-dashboard.json'), 'utf8'));
    const read = (dashboard.panels as Manifest[]).flatMap((panel) =>
      (panel.targets as Manifest[]).flatMap((target) => metricsIn(target.expr as string)),
    );
    expect(new Set(read)).toEqual(
      new Set([
        'http_requests_total',
        'http_request_duration_seconds_bucket',
        'client_cache_hits_total',
        'client_cache_misses_total',
        'db_queries_in_flight',
        'broker_connected',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_seconds',
        'dispatch_sms_sent_total',
        'dispatch_sms_failed_total',
        'dispatch_reports_total',
        'dispatch_sms_configs_unhealthy',
        'dispatch_route_skips_total',
        'dispatch_daily_limits_reached_total',
        'dispatch_route_refusals_total',
        'dispatch_delivery_signals_total',
        'dispatch_route_demotions_total',
        'dispatch_pumping_suspicions_total',
        'delivery_signals_rows_deleted_total',
      ]),
    );
    expect(read.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('should start the compose file in health order, on the MySQL with binary logging on that the migrations are tested against', () => {
    const compose = parseAllDocuments(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'))[0].toJS();
    expect(compose.services.mysql.image).toBe('mysql:8.4');
    expect(JSON.stringify(compose.services.mysql)).not.toMatch(/log.bin.trust/i);
    expect(compose.services.registry.depends_on).toEqual({
      mysql: { condition: 'service_healthy' },
      rabbitmq: { condition: 'service_healthy' },
    });
    for (const dependency of ['mysql', 'rabbitmq']) expect(compose.services[dependency].healthcheck.test).toEqual(expect.any(Array));
  });

  it('should run node itself behind tini in the image, on a pinned Node 22 or 24', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:(22|24)\.\d+\.\d+-/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/main\.js"\]$/m);
    expect(dockerfile).not.toMatch(/^CMD .*npm/m);
  });
});
