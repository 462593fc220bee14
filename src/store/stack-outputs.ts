// The deployed stack's outputs (infra/lorebook-stack.ts: TableName, ImageBucketName, …), read by
// the stack's name with CloudFormation's DescribeStacks: how an operator command run with `--aws`
// finds the table without being told its generated name. Only the operator commands load this
// (src/cli/command-context.ts, on first use); the Lambda bundles never do.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';

export type StackOutputs = Readonly<Record<string, string>>;

/** The outputs of the stack, by OutputKey; an error that says what to set when there is no such stack. */
export async function readStackOutputs(stackName: string, region: string): Promise<StackOutputs> {
  // Bounded as the store client is: a hung endpoint fails the attempt instead of hanging the command.
  const client = new CloudFormationClient({
    region,
    maxAttempts: 3,
    requestHandler: { requestTimeout: 5_000, connectionTimeout: 2_000 },
  });
  try {
    const answer = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = answer.Stacks?.[0]?.Outputs ?? [];
    return Object.fromEntries(
      outputs.flatMap(({ OutputKey, OutputValue }) =>
        OutputKey === undefined || OutputValue === undefined ? [] : [[OutputKey, OutputValue]],
      ),
    );
  } catch (error) {
    // CloudFormation answers a stack it does not know with a ValidationError "Stack with id … does not exist".
    if ((error as Error).name === 'ValidationError')
      throw new Error(
        `the stack "${stackName}" was not found in ${region} (${(error as Error).message}): set LOREBOOK_STACK_NAME to the name it was deployed with, or LOREBOOK_TABLE to its TableName output`,
      );
    throw error;
  } finally {
    client.destroy();
  }
}
