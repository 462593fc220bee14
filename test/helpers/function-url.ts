// Turns a web Request into the event a Lambda Function URL delivers (payload format 2.0) and the
// handler's result back into a Response, so a real client (the MCP SDK's, plain fetch) can drive
// the real handlers/http.ts with no server in between. Faithful to what the Function URL does:
// lower-case header names with repeated values comma-joined, cookies split out, a text body as
// is and anything else base64, the caller's address in requestContext.http.sourceIp.
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { HttpHandler } from '../../handlers/http.ts';

export const FUNCTION_URL_DOMAIN = 'abcdefghijklmnopqrstuvwxyz012345.lambda-url.eu-west-1.on.aws';
export const FUNCTION_URL = `https://${FUNCTION_URL_DOMAIN}`;

const TEXT_TYPES = /^(text\/|application\/(json|[a-z.+-]*\+json|x-www-form-urlencoded|xml))/;

export async function functionUrlEvent(request: Request, sourceIp: string): Promise<APIGatewayProxyEventV2> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (name !== 'cookie') headers[name] = value;
  });
  headers.host = url.host;
  const cookie = request.headers.get('cookie');
  const bytes = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
  const text = TEXT_TYPES.test(request.headers.get('content-type') ?? '');
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => {
    query[name] = query[name] === undefined ? value : `${query[name]},${value}`;
  });
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookie === null ? {} : { cookies: cookie.split(/;\s*/) }),
    headers,
    ...(url.search === '' ? {} : { queryStringParameters: query }),
    requestContext: {
      accountId: 'anonymous',
      apiId: FUNCTION_URL_DOMAIN.split('.')[0] as string,
      domainName: url.hostname,
      domainPrefix: url.hostname.split('.')[0] as string,
      http: {
        method: request.method,
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp,
        userAgent: request.headers.get('user-agent') ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(bytes === undefined ? {} : { body: text ? bytes.toString('utf8') : bytes.toString('base64') }),
    isBase64Encoded: bytes !== undefined && !text,
  };
}

export function responseOf(result: APIGatewayProxyStructuredResultV2): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, String(value));
  for (const cookie of result.cookies ?? []) headers.append('set-cookie', cookie);
  const status = result.statusCode ?? 200;
  const body =
    result.body === undefined || status === 204 || status === 304
      ? null
      : result.isBase64Encoded
        ? Buffer.from(result.body, 'base64')
        : result.body;
  return new Response(body, { status, headers });
}

/** A fetch that answers every request by invoking the handler with a Function URL event. */
export function functionUrlFetch(
  handler: HttpHandler,
  options: { sourceIp?: string; onEvent?: (event: APIGatewayProxyEventV2) => void } = {},
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const event = await functionUrlEvent(request, options.sourceIp ?? '203.0.113.7');
    options.onEvent?.(event);
    return responseOf(await handler(event, lambdaContext()));
  };
}

function lambdaContext(): Parameters<HttpHandler>[1] {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'lorebook-http',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:lorebook-http',
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/lorebook-http',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 30_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
