package sparkdrill.stream

import java.time.ZoneId

import sparkdrill.projection.ColumnParser
import sparkdrill.scan.{SchemaDiscovery, SplitPlanner}

/** What the stream engine takes from the Spark session running it, handed down by the adapter: the engine
  * itself knows no session. Functions where the session's answer may change while a query runs.
  *
  * @param discoverAll how to discover many files at once (a Spark job for many remote files)
  * @param parsers the session's column parsers (Python), as registered now
  * @param splits the session's split settings, as set now
  */
private[sparkdrill] final case class StreamSession(
    zone: ZoneId,
    discoverAll: SchemaDiscovery.Many,
    parsers: () => Seq[ColumnParser],
    splits: () => SplitPlanner.Settings
)
