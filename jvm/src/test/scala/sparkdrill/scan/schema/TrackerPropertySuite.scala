package sparkdrill.scan.schema

import java.util.Locale

import scala.util.Random

import org.apache.spark.sql.types._
import org.scalatest.funsuite.AnyFunSuite

import sparkdrill.reader.TypeLattice
import sparkdrill.projection.{FileInfo, Projection}
import sparkdrill.errors.SchemaException

/** Random per-file schemas (fixed seeds, so failures replay): the union is order-independent, nothing a file
  * has goes missing without a report, and no type conflict passes silently.
  */
class TrackerPropertySuite extends AnyFunSuite {
  private val Seeds = 1 to 300
  private val Names = Seq("a", "b", "c", "d", "e")

  private def atomic(r: Random): DataType =
    Seq(IntegerType, LongType, DoubleType, BooleanType, StringType, DateType, TimestampType, NullType)(
      r.nextInt(8)
    )

  // Maps are what a file's own sample made of an object of many keys (SPEC 5).
  private def dataType(r: Random, depth: Int): DataType = r.nextInt(if (depth > 1) 1 else 7) match {
    case 0 | 1 | 2 => atomic(r)
    case 3 | 4 =>
      StructType(
        r.shuffle(Names).take(1 + r.nextInt(3)).map(n => StructField(spell(r, n), dataType(r, depth + 1)))
      )
    case 5 => ArrayType(dataType(r, depth + 1))
    case _ => MapType(StringType, dataType(r, depth + 1))
  }

  private def spell(r: Random, name: String): String =
    if (r.nextBoolean()) name else name.toUpperCase(Locale.ROOT)

  private def files(r: Random): Seq[FileSchema] = (0 until 1 + r.nextInt(6)).map { i =>
    val cols = r.shuffle(Names).take(r.nextInt(5)).map(n => StructField(spell(r, n), dataType(r, 0)))
    FileSchema(FileInfo(f"/t/f$i%02d.json", Nil, 1L, 0L), StructType(cols), Discovery.Sampled)
  }

  private def resolve(config: ScanConfig, fs: Seq[FileSchema]) =
    ScanSchemaTracker.resolve(config, Projection.wildcard, fs)

  private def lower(s: String) = s.toLowerCase(Locale.ROOT)
  private def typesByName(s: StructType): Map[String, DataType] =
    s.fields.map(f => lower(f.name) -> f.dataType).toMap

  test("property: the same files in any listing order give the same ResolvedSchema") {
    Seeds.foreach { seed =>
      val r = new Random(seed)
      val fs = files(r)
      val a = resolve(ScanConfig(), fs)
      val b = resolve(ScanConfig(), r.shuffle(fs))
      assert(a.schema == b.schema && a.reports == b.reports && a.warnings == b.warnings, s"seed $seed")
    }
  }

  test("property: the type union itself is order-free (same types whatever file comes first)") {
    Seeds.foreach { seed =>
      val r = new Random(seed)
      val fs = files(r)
      // Same schemas under permuted paths, so path order (and first spellings) change but the set does not.
      val permuted = r.shuffle(fs.map(_.schema)).zip(fs).map { case (s, f) => f.copy(schema = s) }
      val strip = (t: DataType) => lowerNames(t)
      val a = typesByName(resolve(ScanConfig(), fs).schema).map { case (k, t) => k -> strip(t) }
      val b = typesByName(resolve(ScanConfig(), permuted).schema).map { case (k, t) => k -> strip(t) }
      assert(a.keySet == b.keySet, s"seed $seed")
      a.foreach { case (k, t) =>
        assert(sameUpToMemberOrder(t, b(k)), s"seed $seed column $k: $t vs ${b(k)}")
      }
    }
  }

  test("property: evolve keeps every column of every file, typed by the join of all its sightings") {
    Seeds.foreach { seed =>
      val fs = files(new Random(seed))
      val res = resolve(ScanConfig(), fs)
      val table = typesByName(res.schema)
      fs.foreach { f =>
        f.schema.fields.foreach(c =>
          assert(table.contains(lower(c.name)), s"seed $seed: ${c.name} of ${f.path}")
        )
      }
      table.foreach { case (name, t) =>
        val seen = fs.flatMap(_.schema.fields.filter(f => lower(f.name) == name).map(_.dataType))
        val expected = TypeLattice.toType(seen.map(TypeLattice.of).reduce(TypeLattice.join))
        assert(DataType.equalsIgnoreCaseAndNullability(t, expected), s"seed $seed column $name")
      }
      assert(res.reports.forall(_.dropped.isEmpty))
    }
  }

  test("property: strict mode keeps or reports every column of every file") {
    Seeds.foreach { seed =>
      val fs = files(new Random(seed))
      val res = resolve(ScanConfig(schemaMode = SchemaMode.Strict), fs)
      val table = typesByName(res.schema)
      res.reports.foreach { rep =>
        rep.columns.foreach { c =>
          c.status match {
            case ColumnStatus.Dropped(_) => assert(!table.contains(lower(c.name)), s"seed $seed")
            case _ => assert(table.contains(lower(c.name)), s"seed $seed")
          }
        }
      }
      val first = fs
        .sortBy(_.path)
        .find(_.schema.nonEmpty)
        .map(_.schema.fieldNames.map(lower).toSet)
        .getOrElse(Set.empty)
      assert(table.keySet.filterNot(_.startsWith("dir")) == first, s"seed $seed")
    }
  }

  test("property: no conflict passes silently (widen reports it, fail raises naming the column)") {
    var conflicts = 0
    Seeds.foreach { seed =>
      val fs = files(new Random(seed)).sortBy(_.path)
      val clashing = (for {
        (f1, i) <- fs.zipWithIndex
        f2 <- fs.drop(i + 1)
        c1 <- f1.schema.fields.toSeq
        c2 <- f2.schema.fields.toSeq if lower(c1.name) == lower(c2.name)
        if conflict(c1.name, TypeLattice.of(c1.dataType), TypeLattice.of(c2.dataType)).isDefined
      } yield lower(c1.name)).toSet
      conflicts += clashing.size
      val widened = resolve(ScanConfig(), fs).reports.flatMap(_.conflicts).map(c => lower(c.column)).toSet
      assert(clashing.subsetOf(widened), s"seed $seed: $clashing not all reported in $widened")
      val fail = ScanConfig(typeConflict = TypeConflictMode.Fail)
      if (clashing.isEmpty) resolve(fail, fs)
      else {
        val e = intercept[SchemaException](resolve(fail, fs))
        assert(clashing.exists(n => lower(e.getMessage).contains(s"'$n")), s"seed $seed: ${e.getMessage}")
      }
    }
    assert(conflicts > 50, "the generator must produce conflicts for this property to mean anything")
  }

  test("property: the lattice join is commutative and associative") {
    Seeds.foreach { seed =>
      val r = new Random(seed)
      val Seq(x, y, z) = Seq.fill(3)(TypeLattice.of(dataType(r, 0)))
      import TypeLattice.join
      assert(
        sameUpToMemberOrder(TypeLattice.toType(join(x, y)), TypeLattice.toType(join(y, x))),
        s"seed $seed"
      )
      assert(
        sameUpToMemberOrder(TypeLattice.toType(join(join(x, y), z)), TypeLattice.toType(join(x, join(y, z)))),
        s"seed $seed"
      )
    }
  }

  /** The reference: the first path (`m.b`, `a[]`) where two sightings of a column differ, pair by pair. Nulls
    * and members only one side has are no conflict; a struct against a map is the map's entries.
    */
  private def conflict(path: String, a: TypeLattice.Kind, b: TypeLattice.Kind): Option[String] = {
    import TypeLattice._
    def first(cs: Iterator[Option[String]]) = cs.collectFirst { case Some(c) => c }
    (a, b) match {
      case (NullOnly, _) | (_, NullOnly) => None
      case (Atomic(x), Atomic(y)) => if (x == y) None else Some(path)
      case (Text, Text) => None
      case (Struct(x), y: Struct) =>
        first(x.iterator.map { case (n, k) => y.member(n).flatMap(conflict(s"$path.$n", k, _)) })
      case (Arr(x), Arr(y)) => conflict(s"$path[]", x, y)
      case (MapOf(k1, v1), MapOf(k2, v2)) =>
        conflict(s"$path{key}", k1, k2).orElse(conflict(s"$path{value}", v1, v2))
      case (MapOf(_, v), Struct(fs)) =>
        first(fs.iterator.map { case (_, k) => conflict(s"$path{value}", v, k) })
      case (s: Struct, m: MapOf) => conflict(path, m, s)
      case _ => Some(path)
    }
  }

  private val Thresholds = Seq(0, 1, 2, 3)

  test("property: with map inference the union is the plain union with its wide objects made maps") {
    for (threshold <- Thresholds; seed <- Seeds) {
      val fs = files(new Random(seed))
      val table = typesByName(resolve(ScanConfig(mapInferenceThreshold = threshold), fs).schema)
      table.foreach { case (name, t) =>
        val seen =
          fs.sortBy(_.path).flatMap(_.schema.fields.filter(f => lower(f.name) == name).map(_.dataType))
        val plain = seen.map(TypeLattice.of).reduce(TypeLattice.join(_, _, TypeLattice.NoMaps))
        val expected = TypeLattice.toType(TypeLattice.withMaps(plain, threshold))
        assert(
          sameUpToMemberOrder(t, expected),
          s"threshold $threshold seed $seed column $name: $t vs $expected"
        )
      }
    }
  }

  test("property: with map inference the types are the same whatever file comes first") {
    for (threshold <- Thresholds; seed <- Seeds) {
      val r = new Random(seed)
      val fs = files(r)
      val permuted = r.shuffle(fs.map(_.schema)).zip(fs).map { case (s, f) => f.copy(schema = s) }
      val config = ScanConfig(mapInferenceThreshold = threshold)
      val a = typesByName(resolve(config, fs).schema)
      val b = typesByName(resolve(config, permuted).schema)
      assert(a.keySet == b.keySet, s"threshold $threshold seed $seed")
      a.foreach { case (k, t) =>
        assert(sameUpToMemberOrder(t, b(k)), s"threshold $threshold seed $seed column $k")
      }
    }
  }

  test("property: with map inference no conflict passes silently") {
    for (threshold <- Thresholds; seed <- Seeds) {
      val fs = files(new Random(seed)).sortBy(_.path)
      def kind(t: DataType) = TypeLattice.withMaps(TypeLattice.of(t), threshold)
      val clashing = (for {
        (f1, i) <- fs.zipWithIndex
        f2 <- fs.drop(i + 1)
        c1 <- f1.schema.fields.toSeq
        c2 <- f2.schema.fields.toSeq if lower(c1.name) == lower(c2.name)
        if conflict(c1.name, kind(c1.dataType), kind(c2.dataType)).isDefined
      } yield lower(c1.name)).toSet
      val config = ScanConfig(mapInferenceThreshold = threshold)
      val widened = resolve(config, fs).reports.flatMap(_.conflicts).map(c => lower(c.column)).toSet
      assert(clashing.subsetOf(widened), s"threshold $threshold seed $seed: $clashing not all in $widened")
    }
  }

  test("property: with map inference the join is commutative and associative") {
    for (threshold <- Thresholds; seed <- Seeds) {
      val r = new Random(seed)
      val Seq(x, y, z) = Seq.fill(3)(TypeLattice.withMaps(TypeLattice.of(dataType(r, 0)), threshold))
      def join(a: TypeLattice.Kind, b: TypeLattice.Kind) = TypeLattice.join(a, b, threshold)
      def same(a: TypeLattice.Kind, b: TypeLattice.Kind) =
        sameUpToMemberOrder(TypeLattice.toType(a), TypeLattice.toType(b))
      assert(same(join(x, y), join(y, x)), s"threshold $threshold seed $seed")
      assert(same(join(join(x, y), z), join(x, join(y, z))), s"threshold $threshold seed $seed")
    }
  }

  private def lowerNames(t: DataType): DataType = t match {
    case s: StructType =>
      StructType(s.fields.map(f => f.copy(name = lower(f.name), dataType = lowerNames(f.dataType))))
    case a: ArrayType => a.copy(elementType = lowerNames(a.elementType))
    case m: MapType => m.copy(keyType = lowerNames(m.keyType), valueType = lowerNames(m.valueType))
    case other => other
  }

  /** Struct member order follows first sighting, which is path order; everything else must match. */
  private def sameUpToMemberOrder(a: DataType, b: DataType): Boolean = (lowerNames(a), lowerNames(b)) match {
    case (x: StructType, y: StructType) =>
      x.size == y.size && x.fields.forall(f =>
        y.fields.find(_.name == f.name).exists(g => sameUpToMemberOrder(f.dataType, g.dataType))
      )
    case (x: ArrayType, y: ArrayType) => sameUpToMemberOrder(x.elementType, y.elementType)
    case (x: MapType, y: MapType) =>
      sameUpToMemberOrder(x.keyType, y.keyType) && sameUpToMemberOrder(x.valueType, y.valueType)
    case (x, y) => x == y
  }
}
