package org.corral.cli.getopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.corral.cli.getopt.Getopt.Arg;
import org.corral.cli.getopt.Getopt.GetoptException;
import org.corral.cli.getopt.Getopt.LongOpt;
import org.corral.cli.getopt.Getopt.Opt;
import org.corral.cli.getopt.Getopt.Result;
import org.junit.jupiter.api.Test;

/** GNU getopt_long behaviour; the messages are glibc's, as Slurm's commands print them. */
class GetoptTest {

  private final Getopt getopt = new Getopt("ab:c::hn:o:", List.of(
      new LongOpt("all", Arg.NONE, "a"),
      new LongOpt("name", Arg.REQUIRED, "n"),
      new LongOpt("nodes", Arg.REQUIRED, "N"),
      new LongOpt("noheader", Arg.NONE, "h"),
      new LongOpt("nice", Arg.OPTIONAL, "nice"),
      new LongOpt("tasks-per-node", Arg.REQUIRED, "tpn"),
      new LongOpt("ntasks-per-node", Arg.REQUIRED, "tpn"),
      new LongOpt("ntasks", Arg.REQUIRED, "ntasks"),
      new LongOpt("output", Arg.REQUIRED, "o"),
      new LongOpt("cluster", Arg.REQUIRED, "M"),
      new LongOpt("clusters", Arg.REQUIRED, "M")));

  private Result parse(String... args) throws GetoptException {
    return getopt.parse(List.of(args));
  }

  private static Opt opt(String key, String value) {
    return new Opt(key, value);
  }

  @Test
  void bundledShortOptionsEndAtOneTakingAValue() throws GetoptException {
    assertThat(parse("-ahbVAL").options())
        .containsExactly(opt("a", null), opt("h", null), opt("b", "VAL"));
    assertThat(parse("-ab", "next").options()).containsExactly(opt("a", null), opt("b", "next"));
  }

  @Test
  void attachedValueKeepsALeadingSpace() throws GetoptException {
    assertThat(parse("-o %i %j").options()).containsExactly(opt("o", " %i %j"));
    assertThat(parse("-o", " %i").options()).containsExactly(opt("o", " %i"));
  }

  @Test
  void requiredValueMayLookLikeAnOption() throws GetoptException {
    assertThat(parse("-n", "-x").options()).containsExactly(opt("n", "-x"));
    assertThat(parse("--name", "--all").options()).containsExactly(opt("n", "--all"));
  }

  @Test
  void optionalValueOnlyWhenAttached() throws GetoptException {
    Result r = parse("-c", "x", "-cy", "--nice", "--nice=5");
    assertThat(r.options()).containsExactly(
        opt("c", null), opt("c", "y"), opt("nice", null), opt("nice", "5"));
    assertThat(r.operands()).containsExactly("x");
  }

  @Test
  void operandsArePermutedAfterOptions() throws GetoptException {
    Result r = parse("12", "-a", "13", "--name=x", "14");
    assertThat(r.options()).containsExactly(opt("a", null), opt("n", "x"));
    assertThat(r.operands()).containsExactly("12", "13", "14");
  }

  @Test
  void plusStopsAtTheFirstOperand() throws GetoptException {
    Getopt posix = new Getopt("+ab:", List.of());
    Result r = posix.parse(List.of("-a", "script.sh", "-b", "x"));
    assertThat(r.options()).containsExactly(opt("a", null));
    assertThat(r.operands()).containsExactly("script.sh", "-b", "x");
  }

  @Test
  void doubleDashEndsOptions() throws GetoptException {
    Result r = parse("-a", "--", "-b", "--all");
    assertThat(r.options()).containsExactly(opt("a", null));
    assertThat(r.operands()).containsExactly("-b", "--all");
  }

  @Test
  void loneDashIsAnOperand() throws GetoptException {
    assertThat(parse("-").operands()).containsExactly("-");
  }

  @Test
  void uniquePrefixesAndExactNamesMatch() throws GetoptException {
    assertThat(parse("--al", "--out=f", "--ntasks=3").options())
        .containsExactly(opt("a", null), opt("o", "f"), opt("ntasks", "3"));
  }

  @Test
  void prefixOfAliasesIsNotAmbiguous() throws GetoptException {
    assertThat(parse("--clu", "c1").options()).containsExactly(opt("M", "c1"));
  }

  @Test
  void ambiguousPrefixListsFirstMatchAndTheDifferentOnesWithTheValueQuoted() {
    assertThatThrownBy(() -> parse("--n=3"))
        .isInstanceOf(GetoptException.class)
        .hasMessage("option '--n=3' is ambiguous; possibilities: '--name' '--nodes' "
            + "'--noheader' '--nice' '--ntasks-per-node' '--ntasks'");
    assertThatThrownBy(() -> parse("--nt"))
        .hasMessage("option '--nt' is ambiguous; possibilities: '--ntasks-per-node' '--ntasks'");
  }

  @Test
  void unknownOptionsQuoteWhatWasTyped() {
    assertThatThrownBy(() -> parse("--bogus=3"))
        .hasMessage("unrecognized option '--bogus=3'");
    assertThatThrownBy(() -> parse("-aZ")).hasMessage("invalid option -- 'Z'");
  }

  @Test
  void missingAndUnwantedValues() {
    assertThatThrownBy(() -> parse("-n")).hasMessage("option requires an argument -- 'n'");
    assertThatThrownBy(() -> parse("--na"))
        .hasMessage("option '--name' requires an argument");
    assertThatThrownBy(() -> parse("--all=x"))
        .hasMessage("option '--all' doesn't allow an argument");
  }
}
