package sparkdrill.stream.state

import sparkdrill.errors.DrillErrors

import java.io.{ByteArrayInputStream, ByteArrayOutputStream, EOFException, FileNotFoundException}
import java.lang.management.ManagementFactory
import java.util.{Properties, UUID}
import java.util.concurrent.{Executors, ScheduledExecutorService, ThreadFactory, TimeUnit}

import scala.util.Try
import scala.util.control.NonFatal

import org.apache.hadoop.fs.{ChecksumException, FileAlreadyExistsException, FileSystem, Path}

/** Who may write a stream's state: one query at a time. Two queries on one checkpoint would both log batch
  * N, and the loser's files would be read by nobody; so the second fails at start, naming the first.
  *
  * The lease is a file made with create-without-overwrite (one winner) holding the owner's `pid@host` and a
  * random id. Its modification time is the last renewal; a daemon thread renews it every
  * [[Lease.RenewEveryMillis]]. It is stale, and taken over, when not renewed for [[Lease.StaleAfterMillis]]
  * or when its owner is a process of this host that is gone (so a `kill -9` does not block an immediate
  * restart), or when nobody can read its owner [[Lease.UnreadableGraceMillis]] after it was written (a writer
  * killed between creating it and writing it). Taking over is delete then create-without-overwrite: of two
  * processes taking over at once one create fails, and that one fails.
  */
private[sparkdrill] final class Lease private (fs: FileSystem, val path: Path, val owner: LeaseOwner) {
  @volatile private var lost: RuntimeException = null
  @volatile private var released = false

  private val renewer: ScheduledExecutorService =
    Executors.newSingleThreadScheduledExecutor(new ThreadFactory {
      def newThread(r: Runnable): Thread = {
        val t = new Thread(r, s"spark-drill stream lease ${path.getParent}")
        t.setDaemon(true)
        t
      }
    })
  renewer.scheduleWithFixedDelay(
    () => renew(),
    Lease.RenewEveryMillis,
    Lease.RenewEveryMillis,
    TimeUnit.MILLISECONDS
  )

  /** Fails when another process took the lease over (this one stalled past the stale time): writing on
    * would corrupt the state the other one now owns.
    */
  def checkHeld(): Unit = {
    val reason = lost
    if (reason != null) throw reason
  }

  /** Renews now (the thread calls this; public for tests). */
  def renew(): Unit = if (!released && lost == null) {
    try
      Lease.readOwner(fs, path) match {
        case Some(o) if o.id == owner.id =>
          val now = System.currentTimeMillis()
          fs.setTimes(path, now, -1)
          // Some stores ignore setTimes (S3A): there the time only moves when the file is written again.
          if (fs.getFileStatus(path).getModificationTime < now - 1000) {
            val out = fs.create(path, true)
            try out.write(owner.bytes)
            finally out.close()
          }
        case Some(other) => lost = DrillErrors.streamLeaseLost(path.toString, Some(other.describe))
        case None => lost = DrillErrors.streamLeaseLost(path.toString, None)
      }
    catch {
      // A failed renewal is retried at the next tick; the lease only goes stale after several.
      case NonFatal(_) =>
    }
  }

  /** Stops renewing and deletes the lease if it is still this one's. Idempotent. */
  def release(): Unit = if (!released) {
    released = true
    renewer.shutdownNow()
    Try {
      if (Lease.readOwner(fs, path).exists(_.id == owner.id)) fs.delete(path, false)
    }
    ()
  }
}

/** A lease's content: `process` is `pid@host` as the JVM names itself, `id` tells two leases of one process
  * apart (two queries of one session).
  */
private[sparkdrill] final case class LeaseOwner(process: String, id: String) {
  def pid: Option[Long] = Try(process.substring(0, process.indexOf('@')).toLong).toOption
  def host: String = process.substring(process.indexOf('@') + 1)
  def describe: String = s"$process (lease id $id)"

  def bytes: Array[Byte] = {
    val p = new Properties()
    p.setProperty("process", process)
    p.setProperty("id", id)
    val out = new ByteArrayOutputStream()
    p.store(out, "spark-drill stream state lease")
    out.toByteArray
  }
}

private[sparkdrill] object Lease {
  val RenewEveryMillis = 5000L
  val StaleAfterMillis = 30000L

  /** This JVM's `pid@host`. */
  lazy val thisProcess: String = ManagementFactory.getRuntimeMXBean.getName

  /** Takes the lease at `path` or fails with an IllegalStateException naming its holder. */
  def take(fs: FileSystem, path: Path): Lease = {
    val me = LeaseOwner(thisProcess, UUID.randomUUID().toString)
    if (!create(fs, path, me)) {
      val status =
        try Some(fs.getFileStatus(path))
        catch { case _: FileNotFoundException => None }
      status match {
        case None => if (!create(fs, path, me)) throw held(fs, path)
        case Some(s) =>
          val holder = readOwner(fs, path).orElse(ownerWithinGrace(fs, path, s.getModificationTime))
          val age = System.currentTimeMillis() - s.getModificationTime
          // Still unreadable after the grace: a writer killed before its few bytes were down.
          if (holder.nonEmpty && !isStale(holder, age)) throw held(fs, path)
          fs.delete(path, false)
          if (!create(fs, path, me))
            throw DrillErrors.streamLeaseTakenOverFirst(path.toString, describeHolder(fs, path))
      }
    }
    new Lease(fs, path, me)
  }

  /** How long an unreadable lease (empty, or cut in the middle of its few bytes) may be a writer still
    * writing: `create` then one small write takes microseconds, so one still unreadable this long after its
    * modification time was left by a writer that died (a `kill -9` between create and write).
    */
  val UnreadableGraceMillis = 2000L
  private val GracePollMillis = 100L

  /** The owner of an unreadable lease once it becomes readable within the grace; None when it stays
    * unreadable (or goes away) until the grace ends.
    */
  private def ownerWithinGrace(fs: FileSystem, path: Path, modifiedAt: Long): Option[LeaseOwner] = {
    var owner = Option.empty[LeaseOwner]
    val deadline = math.min(modifiedAt, System.currentTimeMillis()) + UnreadableGraceMillis
    while (owner.isEmpty && System.currentTimeMillis() < deadline) {
      Thread.sleep(GracePollMillis)
      owner = readOwner(fs, path)
    }
    owner
  }

  /** Stale: not renewed for StaleAfterMillis, or held by a process of this host that has ended. */
  def isStale(holder: Option[LeaseOwner], ageMillis: Long): Boolean =
    ageMillis > StaleAfterMillis || holder.exists { h =>
      val myPid = Try(thisProcess.substring(0, thisProcess.indexOf('@')).toLong).toOption
      h.host == thisProcess.substring(thisProcess.indexOf('@') + 1) && h.pid.isDefined && h.pid != myPid &&
      processAlive(h.pid.get).contains(false)
    }

  /** Whether a process of this host runs: Java 9's ProcessHandle, found by reflection since the jar for
    * Spark 3.5 targets Java 8; None there (only the renewal time then tells a dead holder).
    */
  def processAlive(pid: Long): Option[Boolean] =
    if (zombie(pid)) Some(false)
    else
      try {
        val handle = Class.forName("java.lang.ProcessHandle")
        val found = handle.getMethod("of", java.lang.Long.TYPE).invoke(null, Long.box(pid))
        val optional = found.asInstanceOf[java.util.Optional[AnyRef]]
        if (!optional.isPresent) Some(false)
        else Some(handle.getMethod("isAlive").invoke(optional.get).asInstanceOf[Boolean])
      } catch {
        case NonFatal(_) => None
        case _: LinkageError => None
      }

  /** A process killed but not yet reaped by its parent (a supervisor that restarts a job before it waits for
    * the old one): ProcessHandle calls it alive, Linux's /proc says `Z`. False where there is no /proc.
    */
  private def zombie(pid: Long): Boolean =
    try {
      val stat = new String(
        java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(s"/proc/$pid/stat")),
        java.nio.charset.StandardCharsets.US_ASCII
      )
      // `pid (command) S ...`: the state follows the command's closing parenthesis (a command may hold any).
      val close = stat.lastIndexOf(')')
      close > 0 && stat.length > close + 2 && stat.charAt(close + 2) == 'Z'
    } catch { case NonFatal(_) => false }

  def readOwner(fs: FileSystem, path: Path): Option[LeaseOwner] =
    try {
      val in = fs.open(path)
      val bytes =
        try {
          val out = new ByteArrayOutputStream()
          val buf = new Array[Byte](4096)
          var n = in.read(buf)
          while (n >= 0) { out.write(buf, 0, n); n = in.read(buf) }
          out.toByteArray
        } finally in.close()
      val p = new Properties()
      p.load(new ByteArrayInputStream(bytes))
      // A lease being rewritten (stores without setTimes) can read empty for a moment: owner unknown.
      for {
        process <- Option(p.getProperty("process"))
        id <- Option(p.getProperty("id"))
      } yield LeaseOwner(process, id)
    } catch {
      case _: FileNotFoundException => None
      // Hadoop's local file system checks a checksum file written beside the lease: a write cut short leaves
      // them apart, which is an unreadable owner, as a short file is.
      case _: ChecksumException | _: EOFException => None
    }

  private def create(fs: FileSystem, path: Path, owner: LeaseOwner): Boolean =
    try {
      val out = fs.create(path, false)
      try out.write(owner.bytes)
      finally out.close()
      true
    } catch { case _: FileAlreadyExistsException => false }

  private def held(fs: FileSystem, path: Path): RuntimeException =
    DrillErrors.streamLeaseHeld(path.toString, describeHolder(fs, path), StaleAfterMillis / 1000)

  private def describeHolder(fs: FileSystem, path: Path): String = {
    val owner = readOwner(fs, path).map(_.describe).getOrElse("an unknown owner")
    val ago = Try(System.currentTimeMillis() - fs.getFileStatus(path).getModificationTime).toOption
    owner + ago.map(ms => s", renewed ${ms / 1000.0} s ago").getOrElse("")
  }
}
