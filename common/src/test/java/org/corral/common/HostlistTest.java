package org.corral.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected strings are what Slurm 22.05's scontrol show hostnames/hostlist/hostlistsorted print. */
class HostlistTest {

  @Test
  void expandsRangesListsAndPadding() {
    assertThat(Hostlist.expand("n[1-3,7]")).containsExactly("n1", "n2", "n3", "n7");
    assertThat(Hostlist.expand("gpu[001-003]")).containsExactly("gpu001", "gpu002", "gpu003");
    assertThat(Hostlist.expand("n[01-3]")).containsExactly("n01", "n02", "n03");
    assertThat(Hostlist.expand("n[1-03]")).containsExactly("n1", "n2", "n3");
    assertThat(Hostlist.expand("n[08-10]")).containsExactly("n08", "n09", "n10");
    assertThat(Hostlist.expand("a,b[1-2] c")).containsExactly("a", "b1", "b2", "c");
    assertThat(Hostlist.expand("n[1-2],,n3,")).containsExactly("n1", "n2", "n3");
    assertThat(Hostlist.expand("[12-13]")).containsExactly("12", "13");
    assertThat(Hostlist.expand("")).isEmpty();
  }

  @Test
  void expandsSeveralBracketsLeftToRight() {
    assertThat(Hostlist.expand("r[1-2]n[1-3]"))
        .containsExactly("r1n1", "r1n2", "r1n3", "r2n1", "r2n2", "r2n3");
    assertThat(Hostlist.expand("n[1-2][3-4]")).containsExactly("n13", "n14", "n23", "n24");
  }

  @Test
  void expandKeepsOrderAndDuplicates() {
    assertThat(Hostlist.expand("n[3,1-2,2]")).containsExactly("n3", "n1", "n2", "n2");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "n[3-1]|invalid range '3-1'",
      "n[a-b]|invalid range 'a-b'",
      "n[]|invalid range ''",
      "n[1-2,,3]|invalid range ''",
      "n[1--2]|invalid range '1--2'",
      "n[-1]|invalid range '-1'",
      "n[1-3|unbalanced '['",
      "n[1-2]]|unbalanced ']'",
      "n[[1]]|nested '['",
      "n[1-65537]|too many hosts in range '1-65537'"})
  void rejectsBadSyntaxLikeSlurm(String expr, String reason) {
    assertThatThrownBy(() -> Hostlist.expand(expr))
        .isInstanceOfSatisfying(InvalidHostlistException.class, e -> {
          assertThat(e.getMessage()).isEqualTo("Invalid hostlist: " + expr);
          assertThat(e.reason()).isEqualTo(reason);
          assertThat(e.expression()).isEqualTo(expr);
        });
  }

  @Test
  void hostileMultiplicationIsCapped() {
    assertThat(Hostlist.expand("n[1-65536]")).hasSize(65536);
    assertThatThrownBy(() -> Hostlist.expand("n[1-60000][1-60000]"))
        .isInstanceOf(InvalidHostlistException.class)
        .satisfies(e -> assertThat(((InvalidHostlistException) e).reason()).contains("more than"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "n1,n3,n2|n[1,3,2]",
      "n3,n1,n2,n2|n[3,1-2,2]",
      "a1,b1,a2|a1,b1,a2",
      "a1,a2,b1,b2,a3|a[1-2],b[1-2],a3",
      "n01,n02,n3|n[01-02,3]",
      "n1,n01|n[1,01]",
      "n9,n10,n11|n[9-11]",
      "n09,n10|n[09-10]",
      "n099,n100|n[099-100]",
      "n08,n9|n[08,9]",
      "n01,n2|n[01,2]",
      "n9,n010|n[9,010]",
      "n,n1,n2|n,n[1-2]",
      "n1,n2,n|n[1-2],n",
      "foo,bar,foo|foo,bar,foo",
      "r1n1,r1n2,r2n1|r1n[1-2],r2n1",
      "x1y,x2y|x1y,x2y",
      "n1-ib,n2-ib|n1-ib,n2-ib",
      "n1,n1|n[1,1]",
      "n5|n5",
      "12,13|[12-13]",
      "n0,n00,n000|n[0,00,000]",
      "n-1,n-2|n-[1-2]"})
  void compressMatchesSlurm(String names, String expected) {
    assertThat(Hostlist.compress(List.of(names.split(",")))).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "n3,n1,n2,n2,m1,n1|m1,n[1,1-2,2-3]",
      "n001,n002,n003,n4,n05|n[4,05,001-003]",
      "n01,n2|n[2,01]",
      "n10,n9|n[9-10]",
      "n100,n9,n010,n01|n[9,01,010,100]",
      "b1,a1,a|a,a1,b1",
      "n,n1,b|b,n,n1",
      "n1,nn1,n2|n[1-2],nn1",
      "10,9,a|[9-10],a",
      "n08,n9|n[9,08]"})
  void compressSortedMatchesHostlistsorted(String names, String expected) {
    assertThat(Hostlist.compressSorted(List.of(names.split(",")))).isEqualTo(expected);
  }

  @Test
  void compressOfNothingIsEmpty() {
    assertThat(Hostlist.compress(List.of())).isEmpty();
  }

  @Property(tries = 300)
  void expandInvertsCompress(@ForAll("hostNames") List<String> names) {
    assertThat(Hostlist.expand(Hostlist.compress(names))).containsExactlyElementsOf(names);
  }

  @Property(tries = 300)
  void compressSortedKeepsEveryHost(@ForAll("hostNames") List<String> names) {
    assertThat(Hostlist.expand(Hostlist.compressSorted(names))).containsExactlyInAnyOrderElementsOf(names);
  }

  @Property(tries = 200)
  void compressInvertsExpandOfCanonicalRanges(@ForAll("rangeLists") String expr) {
    List<String> hosts = Hostlist.expand(expr);
    assertThat(Hostlist.compress(Hostlist.expand(Hostlist.compress(hosts)))).isEqualTo(Hostlist.compress(hosts));
  }

  @Provide
  Arbitrary<List<String>> hostNames() {
    Arbitrary<String> prefix = Arbitraries.of("n", "gpu", "r1n", "a-", "", "x");
    Arbitrary<String> digits = Arbitraries.strings().numeric().ofMinLength(0).ofMaxLength(4);
    Arbitrary<String> name = Combinators.combine(prefix, digits).as((p, d) -> p + d)
        .filter(s -> !s.isEmpty());
    // Runs of consecutive numbers are what compression merges, so generate plenty of them.
    Arbitrary<List<String>> run = Combinators.combine(prefix, Arbitraries.integers().between(0, 120),
        Arbitraries.integers().between(1, 6), Arbitraries.integers().between(0, 3))
        .as((p, start, len, width) -> {
          List<String> out = new ArrayList<>();
          for (int i = start; i < start + len; i++) {
            out.add(p + (width == 0 ? Integer.toString(i) : String.format("%0" + width + "d", i)));
          }
          return out;
        });
    Arbitrary<List<String>> chunk = Arbitraries.oneOf(name.list().ofMaxSize(3), run);
    return chunk.list().ofMaxSize(6).map(chunks -> chunks.stream().flatMap(List::stream).toList());
  }

  @Provide
  Arbitrary<String> rangeLists() {
    Arbitrary<String> range = Combinators.combine(Arbitraries.integers().between(0, 50),
        Arbitraries.integers().between(0, 5), Arbitraries.of("", "0", "00"))
        .as((lo, len, pad) -> pad + lo + (len == 0 ? "" : "-" + pad + (lo + len)));
    Arbitrary<String> item = Combinators.combine(Arbitraries.of("n", "gpu", "rack1-"), range.list().ofMinSize(1).ofMaxSize(3))
        .as((p, ranges) -> p + "[" + String.join(",", ranges) + "]");
    return item.list().ofMinSize(1).ofMaxSize(3).map(items -> String.join(",", items));
  }
}
