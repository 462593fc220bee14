// Cost per million searches on AWS for the three designs issue 18 names, from the figures this run
// measured (query time, heap after load, snapshot load time) and prices that are ASSUMPTIONS: AWS
// pages cannot be reached from the machine that runs the bench, so every price below is unverified.

export const PRICE_ASSUMPTIONS = {
  lambdaArmPerGbSecond: 0.0000133334,
  lambdaPerMillionRequests: 0.2,
  s3PerThousandGets: 0.0004,
  openSearchPerOcuHour: 0.24,
  /** Two OCUs (one indexing, one search) with standby replicas off; production redundancy doubles it. */
  openSearchMinimumOcus: 2,
  hoursPerMonth: 730,
  /** One cold start (one snapshot GET and load) per this many searches: a traffic assumption. */
  searchesPerColdStart: 1000,
  /** A warm instance asks S3 "is there a newer snapshot?" (a conditional GET by ETag) this often. */
  etagPollSeconds: 2,
  /** Warm instances, for the ETag polls. */
  warmInstances: 4,
  /** Lambda's smallest memory step above what the process needs, and the runtime's own heap. */
  runtimeOverheadMiB: 80,
};

export interface SnapshotCostInput {
  queryP50Ms: number;
  heapAfterLoadBytes: number;
  loadMs: number;
}

export interface CostLine {
  design: string;
  perMillion: number | undefined;
  how: string;
}

/** The Lambda memory the loaded index needs: heap, doubled for GC headroom, plus the runtime, in 64 MiB steps. */
export function lambdaMemoryMiB(heapAfterLoadBytes: number): number {
  const needed = (2 * heapAfterLoadBytes) / 1024 ** 2 + PRICE_ASSUMPTIONS.runtimeOverheadMiB;
  return Math.max(128, Math.ceil(needed / 64) * 64);
}

export function snapshotLambdaCost(input: SnapshotCostInput): CostLine {
  const p = PRICE_ASSUMPTIONS;
  const memoryGb = lambdaMemoryMiB(input.heapAfterLoadBytes) / 1024;
  const billedQueryMs = Math.max(1, Math.ceil(input.queryP50Ms));
  const queries = 1e6 * memoryGb * (billedQueryMs / 1000) * p.lambdaArmPerGbSecond;
  const coldStarts = 1e6 / p.searchesPerColdStart;
  const cold = coldStarts * (memoryGb * (input.loadMs / 1000) * p.lambdaArmPerGbSecond + p.s3PerThousandGets / 1000);
  const requests = p.lambdaPerMillionRequests;
  // ETag polls cost per month, not per search: spread over a month of one million searches.
  const polls = ((p.warmInstances * p.hoursPerMonth * 3600) / p.etagPollSeconds) * (p.s3PerThousandGets / 1000);
  return {
    design: 'Snapshot in S3, loaded by Lambda',
    perMillion: queries + cold + requests + polls,
    how:
      `${lambdaMemoryMiB(input.heapAfterLoadBytes)} MiB × ${billedQueryMs} ms billed per search = $${queries.toFixed(2)}; ` +
      `${coldStarts} cold starts × (GET + ${Math.round(input.loadMs)} ms load) = $${cold.toFixed(2)}; requests $${requests.toFixed(2)}; ` +
      `ETag polls (a month, ${p.warmInstances} instances, every ${p.etagPollSeconds} s) $${polls.toFixed(2)}`,
  };
}

export function openSearchServerlessCost(searchesPerMonth: number): CostLine {
  const p = PRICE_ASSUMPTIONS;
  const monthly = p.openSearchMinimumOcus * p.openSearchPerOcuHour * p.hoursPerMonth;
  return {
    design: 'OpenSearch Serverless (not run here)',
    perMillion: (monthly / searchesPerMonth) * 1e6 + p.lambdaPerMillionRequests,
    how: `a floor of ${p.openSearchMinimumOcus} OCUs × $${p.openSearchPerOcuHour}/h = $${monthly.toFixed(0)}/month whatever the traffic, at ${searchesPerMonth.toLocaleString('en')} searches a month; plus the Lambda in front`,
  };
}

export function lanceDbCost(): CostLine {
  return {
    design: 'LanceDB on S3 (not installed here)',
    perMillion: undefined,
    how:
      'not measured: its arm64 native module is ~149 MB unpacked (the Lambda limit is 250 MB for the function and its layers), ' +
      'so it needs a layer or a container image and its cold start is unknown; each uncached query reads index and data ' +
      `objects from S3 (at an assumed 5 GETs, $${((5 * 1e6 * PRICE_ASSUMPTIONS.s3PerThousandGets) / 1000).toFixed(2)} per million searches, before Lambda time)`,
  };
}
