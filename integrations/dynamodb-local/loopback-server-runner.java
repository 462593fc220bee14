// Starts DynamoDB Local exactly as its own ServerRunner does, but binds Jetty to one host
// (127.0.0.1) instead of every interface. The stock jar has no host flag: DynamoDBProxyServer
// builds `new org.eclipse.jetty.server.Server(port)`, whose ServerConnector has no host and so
// listens on 0.0.0.0. The connector exists before start(), so setting its host here is enough.
// Compiled at start time by integrations/dynamodb-local/loopback-runner.ts (kebab-case file name,
// so the class is package-private; the java launcher runs it all the same).
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

final class LoopbackServerRunner {
  public static void main(String[] args) {
    String host = System.getProperty("lorebook.ddb.host", "127.0.0.1");
    // @NOTE the parent keeps our stdin open; when it dies without stopping us, EOF arrives and we
    // exit instead of lingering as an orphan that holds the port (and the data dir).
    if (Boolean.getBoolean("lorebook.ddb.exitOnStdinEof")) watchStdin();
    try {
      DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
      Field field = DynamoDBProxyServer.class.getDeclaredField("server");
      field.setAccessible(true);
      Server server = (Server) field.get(proxy);
      for (Connector connector : server.getConnectors()) {
        ((ServerConnector) connector).setHost(host);
      }
      proxy.start();
      // DynamoDBProxyServer.start() swallows a SocketException and only stops Jetty.
      if (!server.isStarted()) System.exit(1);
      System.out.println("Listening on " + host + ":" + ((ServerConnector) server.getConnectors()[0]).getLocalPort());
      server.join();
    } catch (Throwable error) {
      System.err.println("LoopbackServerRunner failed: " + error);
      for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
        System.err.println("  caused by: " + cause);
      }
      System.exit(1);
    }
  }

  private static void watchStdin() {
    Thread watcher = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // discard
        }
      } catch (Exception ignored) {
        // a broken pipe means the parent is gone too
      }
      System.exit(0);
    }, "lorebook-stdin-watcher");
    watcher.setDaemon(true);
    watcher.start();
  }
}
