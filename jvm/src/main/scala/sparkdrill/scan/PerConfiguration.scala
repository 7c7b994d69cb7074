package sparkdrill.scan

import org.apache.hadoop.conf.Configuration

/** A value worked out once per Hadoop configuration (each load has its own), kept while the configuration
  * lives. Planning threads ask for it once per file, so the last one is read without taking the lock.
  */
private[sparkdrill] final class PerConfiguration[T <: AnyRef](make: Configuration => T) {
  private val values = java.util.Collections.synchronizedMap(new java.util.WeakHashMap[Configuration, T]())
  @volatile private var last: (Configuration, T) = _

  def apply(conf: Configuration): T = {
    val seen = last
    if (seen != null && (seen._1 eq conf)) seen._2
    else {
      val value = values.computeIfAbsent(conf, c => make(c))
      last = (conf, value)
      value
    }
  }
}
