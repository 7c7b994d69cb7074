package sparkdrill.stream.state

import java.util.concurrent.TimeUnit

import org.apache.hadoop.fs.Path
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.TestFiles
import sparkdrill.stream.state.StreamStateFixtures._

class LeaseSuite extends AnyFunSuite with TestFiles {
  private def stateDir: Path = new Path("file:" + root.resolve("checkpoint/sources/0/drill"))
  private def leasePath: Path = new Path(stateDir, "lease")
  private def fs = stateDir.getFileSystem(conf)

  /** A lease file as another holder would have left it, renewed `ageMillis` ago. */
  private def foreignLease(process: String, ageMillis: Long): Unit = {
    fs.mkdirs(stateDir)
    val out = fs.create(leasePath, false)
    out.write(LeaseOwner(process, "their-id").bytes)
    out.close()
    fs.setTimes(leasePath, System.currentTimeMillis() - ageMillis, -1)
  }

  private val thisHost = Lease.thisProcess.substring(Lease.thisProcess.indexOf('@') + 1)

  test("a second open of the same state fails at start, naming the lease file, its owner and its age") {
    val first = open(stateDir)
    try {
      val e = intercept[IllegalStateException](open(stateDir))
      assert(e.getMessage.contains("Another query is running on this checkpoint: the stream's lease"))
      assert(e.getMessage.contains(leasePath.toUri.getPath))
      assert(e.getMessage.contains(s"held by ${Lease.thisProcess} (lease id ${first.heldLease.owner.id})"))
      assert(e.getMessage.matches("(?s).*renewed [0-9.]+ s ago.*"))
      // The first keeps working.
      first.logBatch(0, files(0, 0, 2))
    } finally first.close()
  }

  test("close releases the lease: the next open succeeds at once") {
    val first = open(stateDir)
    first.close()
    assert(!fs.exists(leasePath))
    val second = open(stateDir)
    try assert(fs.exists(leasePath))
    finally second.close()
  }

  test("a fresh lease of a live process elsewhere blocks; one not renewed for 30 s is taken over") {
    foreignLease("4242@some-other-host", ageMillis = 1000)
    val e = intercept[IllegalStateException](open(stateDir))
    assert(e.getMessage.contains("held by 4242@some-other-host (lease id their-id)"))
    fs.setTimes(leasePath, System.currentTimeMillis() - 31000, -1)
    val s = open(stateDir)
    try assert(Lease.readOwner(fs, leasePath).map(_.id).contains(s.heldLease.owner.id))
    finally s.close()
  }

  test("the lease of an ended process of this host (a kill -9) is taken over at once") {
    val child = new ProcessBuilder("sleep", "0").start()
    assert(child.waitFor(30, TimeUnit.SECONDS))
    val deadPid = child.pid()
    assert(Lease.processAlive(deadPid).contains(false))
    foreignLease(s"$deadPid@$thisHost", ageMillis = 0)
    val s = open(stateDir)
    try assert(Lease.readOwner(fs, leasePath).map(_.process).contains(Lease.thisProcess))
    finally s.close()
  }

  // A writer killed between creating the lease and writing its owner (or in the middle of the few bytes)
  // leaves a lease nobody can read. Without a grace for that, a restart right after the kill -9 failed as
  // "held by an unknown owner" (test_kill_9_at_random_moments, seed 1747338060).
  Seq("empty" -> Array.emptyByteArray, "cut mid-write" -> "#spark-drill stream state lease\npro".getBytes)
    .foreach { case (what, content) =>
      test(s"a lease left $what by a killed writer is taken over after a short grace, not held") {
        fs.mkdirs(stateDir)
        val out = fs.create(leasePath, false)
        out.write(content)
        out.close()
        val started = System.nanoTime()
        val s = open(stateDir)
        try {
          assert(Lease.readOwner(fs, leasePath).map(_.id).contains(s.heldLease.owner.id))
          val waitedMillis = (System.nanoTime() - started) / 1000000
          assert(waitedMillis < Lease.UnreadableGraceMillis + 3000, s"waited $waitedMillis ms")
        } finally s.close()
      }
    }

  test("an unreadable lease that becomes readable within the grace is its writer's: it is held") {
    fs.mkdirs(stateDir)
    fs.create(leasePath, false).close()
    // The owner's bytes arrive while the second query waits out the grace.
    val writer = new Thread(() => {
      Thread.sleep(300)
      val out = fs.create(leasePath, true)
      out.write(LeaseOwner("4242@some-other-host", "their-id").bytes)
      out.close()
    })
    writer.start()
    try {
      val e = intercept[IllegalStateException](open(stateDir))
      assert(e.getMessage.contains("held by 4242@some-other-host (lease id their-id)"))
    } finally writer.join()
  }

  test("a lease of a live process of this host is not taken over") {
    val child = new ProcessBuilder("sleep", "30").start()
    try {
      assert(Lease.processAlive(child.pid()).contains(true))
      foreignLease(s"${child.pid()}@$thisHost", ageMillis = 0)
      intercept[IllegalStateException](open(stateDir))
    } finally child.destroyForcibly()
  }

  test("renewal moves the lease's time; a lease taken over by another makes writes fail") {
    val s = open(stateDir)
    try {
      fs.setTimes(leasePath, System.currentTimeMillis() - 20000, -1)
      s.heldLease.renew()
      assert(System.currentTimeMillis() - fs.getFileStatus(leasePath).getModificationTime < 5000)
      // Another process decided this one was stale and took over.
      fs.delete(leasePath, false)
      foreignLease("7@elsewhere", ageMillis = 0)
      s.heldLease.renew()
      val e = intercept[IllegalStateException](s.logBatch(0, Nil))
      assert(e.getMessage.contains("was taken over by 7@elsewhere"))
    } finally s.close()
    // close leaves the other holder's lease alone.
    assert(Lease.readOwner(fs, leasePath).map(_.process).contains("7@elsewhere"))
  }
}
