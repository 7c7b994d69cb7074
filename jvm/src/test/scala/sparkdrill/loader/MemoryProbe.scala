package sparkdrill.loader

import java.lang.management.ManagementFactory
import javax.management.ObjectName

import org.apache.spark.memory.MemoryMode
import org.apache.spark.sql.types._

import org.apache.spark.sql.execution.vectorized.{OffHeapColumnVector, OnHeapColumnVector}

/** Run in a child JVM with -XX:NativeMemoryTracking=summary by [[MemorySuite]]: prints the JVM's native
  * "Other" memory (where Unsafe.allocateMemory lands, so off-heap vectors) at each step as `step bytes`.
  */
object MemoryProbe {
  def other(): Long = {
    val out = ManagementFactory.getPlatformMBeanServer
      .invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"),
        "vmNativeMemory",
        Array[AnyRef](Array("summary", "scale=b")),
        Array("[Ljava.lang.String;")
      )
      .asInstanceOf[String]
    val m = """(?m)^-\s+Other \(reserved=(\d+)""".r.findFirstMatchIn(out)
    m.getOrElse(throw new IllegalStateException("no NMT 'Other' line: " + out.take(300))).group(1).toLong
  }

  private val schema = new StructType()
    .add("id", IntegerType)
    .add("s", StringType)
    .add("xs", ArrayType(new StructType().add("a", LongType).add("t", StringType)))

  /** Writes enough to overflow many times, adds a late column and a late member, harvests as it goes. */
  private def exercise(mode: MemoryMode, projection: ProjectionFilter, leak: Boolean): Unit = {
    val l =
      ResultSetLoaders.create(LoaderOptions(batchBytes = 256L << 10, memoryMode = mode), schema, projection)
    val w = l.writer
    for (i <- 0 until 20000) {
      w.start()
      w.column(0).setInt(i)
      w.column(1).setString("s" * (i % 200))
      val xs = w.column(2).array
      for (j <- 0 until i % 4) {
        xs.element.struct.column(0).setLong(j.toLong); xs.element.struct.column(1).setString("t" * j);
        xs.save()
      }
      if (i == 5000) w.addColumn(StructField("late", StringType))
      if (i > 5000) w.column("late").setString("late" * 10)
      w.save()
      if (w.isFull) l.harvest()
    }
    l.harvest()
    println(s"peak ${other()}")
    if (leak) {
      val v =
        if (mode == MemoryMode.OFF_HEAP) new OffHeapColumnVector(4096, StringType)
        else new OnHeapColumnVector(4096, StringType)
      v.putByteArray(0, new Array[Byte](1 << 20))
    }
    l.close()
  }

  def main(args: Array[String]): Unit = {
    val mode = MemoryMode.valueOf(args(0))
    val projection = if (args(1) == "all") ProjectionFilter.All else ProjectionFilter.None
    exercise(mode, projection, leak = false) // loads classes and lets the JVM settle
    System.gc()
    println(s"start ${other()}")
    exercise(mode, projection, leak = args(2) == "leak")
    println(s"end ${other()}")
  }
}
