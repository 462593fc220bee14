// The sweeper runs every minute from an EventBridge rule rather than EventBridge Scheduler: a
// fixed rate needs no time zone, no flexible window and no role of its own (the rule invokes
// the function through its resource policy). A missed or doubled run is harmless — the next
// one is a minute away and every sweep is twice-safe — so the target does not retry.
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';

export const SWEEP_RATE = Duration.minutes(1);

export function scheduleSweeper(scope: Construct, fn: IFunction): Rule {
  return new Rule(scope, 'SweepEveryMinute', {
    description: 'lorebook: announce sweep and notification backstop',
    schedule: Schedule.rate(SWEEP_RATE),
    targets: [new LambdaFunction(fn, { retryAttempts: 0 })],
  });
}
