// A FAKE AWS CloudFormation for tests: a loopback HTTP server that answers the one call lorebook's
// operator commands make, DescribeStacks (the Query protocol: a form-encoded POST, an XML answer,
// a ValidationError for a stack it does not know), so the real @aws-sdk/client-cloudformation
// client can be pointed at it by endpoint (AWS_ENDPOINT_URL_CLOUDFORMATION). CloudFormation cannot
// run here; this stands in for exactly that call and records the stack names asked for.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCloudFormation {
  url: string;
  /** The StackName of every DescribeStacks answered so far, in order. */
  asked(): readonly string[];
  close(): Promise<void>;
}

const NS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';
const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function describeStacks(name: string, outputs: Record<string, string>): string {
  const members = Object.entries(outputs)
    .map(([key, value]) => `<member><OutputKey>${escapeXml(key)}</OutputKey><OutputValue>${escapeXml(value)}</OutputValue></member>`)
    .join('');
  return `<DescribeStacksResponse xmlns="${NS}"><DescribeStacksResult><Stacks><member><StackName>${escapeXml(name)}</StackName><StackId>arn:aws:cloudformation:eu-west-1:000000000000:stack/${escapeXml(name)}/fake</StackId><CreationTime>2026-01-01T00:00:00Z</CreationTime><StackStatus>UPDATE_COMPLETE</StackStatus><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>fake</RequestId></ResponseMetadata></DescribeStacksResponse>`;
}

const validationError = (message: string): string =>
  `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>ValidationError</Code><Message>${escapeXml(message)}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`;

/** `stacks`: each stack's outputs by OutputKey; any other name is answered as CloudFormation does. */
export async function startFakeCloudFormation(stacks: Record<string, Record<string, string>>): Promise<FakeCloudFormation> {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const name = form.get('StackName') ?? '';
      res.setHeader('content-type', 'text/xml');
      if (form.get('Action') !== 'DescribeStacks') {
        res.statusCode = 400;
        res.end(validationError(`the fake answers DescribeStacks only, got ${String(form.get('Action'))}`));
        return;
      }
      asked.push(name);
      const outputs = stacks[name];
      res.statusCode = outputs === undefined ? 400 : 200;
      res.end(outputs === undefined ? validationError(`Stack with id ${name} does not exist`) : describeStacks(name, outputs));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked: () => [...asked],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
