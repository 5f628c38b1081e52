package org.corral.cli.sacct;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.corral.cli.format.ParseTime;
import org.corral.protocol.StepIds;
import org.corral.protocol.msg.JobState;
import org.junit.jupiter.api.Test;

/** sacct's options and defaults as Slurm 22.05 applies them (time windows measured with sacct -v). */
class SacctOptionsTest {
  private static final long NOW = ReferenceJobs.NOW; // 2026-11-24T00:48:47Z
  private static final long MIDNIGHT = ReferenceJobs.DAY;

  private static SacctOptions parse(String... args) throws SacctOptions.Refused {
    return parse(Map.of(), args);
  }

  private static SacctOptions parse(Map<String, String> env, String... args) throws SacctOptions.Refused {
    return SacctOptions.parse(List.of(args), env, NOW, ZoneOffset.UTC, 1001, SacctGoldenTest.USERS);
  }

  @Test
  void defaultWindowIsTodayUntilNow() throws Exception {
    SacctOptions o = parse();
    assertThat(o.start()).isEqualTo(MIDNIGHT);
    assertThat(o.end()).isEqualTo(NOW);
    assertThat(o.allUsers()).isFalse();
    assertThat(o.fields()).extracting(SacctField::name)
        .containsExactly("JobID", "JobName", "Partition", "Account", "AllocCPUS", "State", "ExitCode");
  }

  @Test
  void jobsWidenTheWindowToEpochAndEveryUser() throws Exception {
    SacctOptions o = parse("-j", "12_3.batch,7");
    assertThat(o.start()).isZero();
    assertThat(o.end()).isEqualTo(NOW);
    assertThat(o.allUsers()).isTrue();
    assertThat(o.jobs()).extracting(JobSelector::job, JobSelector::task, JobSelector::step)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(12L, 3, StepIds.BATCH),
            org.assertj.core.groups.Tuple.tuple(7L, -1, null));
  }

  @Test
  void statesLookAtOneSecondFromNowOrFromTheStart() throws Exception {
    SacctOptions o = parse("-s", "r,CD,oom");
    assertThat(o.start()).isEqualTo(NOW);
    assertThat(o.end()).isEqualTo(NOW + 1);
    assertThat(o.states()).containsExactlyInAnyOrder(JobState.RUNNING, JobState.COMPLETED, JobState.OUT_OF_MEMORY);
    SacctOptions s = parse("-s", "CA", "-S", "2026-11-20");
    assertThat(s.end()).isEqualTo(s.start() + 1);
    SacctOptions j = parse("-j", "5", "-s", "R");
    assertThat(j.start()).isZero();
    assertThat(j.end()).isEqualTo(NOW);
  }

  @Test
  void aStartAtTheEpochItselfIsAStartGiven() throws Exception {
    SacctOptions o = parse("-a", "-S", "1970-01-01T00:00:00");
    assertThat(o.start()).isZero(); // UTC: the epoch, not today's midnight
    assertThat(o.end()).isEqualTo(NOW);
  }

  @Test
  void startAfterEndIsRefusedWithSlurmsMessage() {
    assertThatThrownBy(() -> parse("-S", "2026-11-20", "-E", "2026-11-19"))
        .hasMessage("sacct: error: Start time (2026-11-20T00:00:00) requested is after end time "
            + "(2026-11-19T00:00:00).");
  }

  @Test
  void timesAreReadAsParseTimeReadsThemForThePast() throws Exception {
    assertThat(ParseTime.parse("now-1hour", NOW, ZoneOffset.UTC)).isEqualTo(NOW - 3600);
    assertThat(ParseTime.parse("now+10", NOW, ZoneOffset.UTC)).isEqualTo(NOW + 10);
    assertThat(ParseTime.parse("23:59", NOW, ZoneOffset.UTC)).isEqualTo(MIDNIGHT + 86340); // today, not tomorrow
    assertThat(ParseTime.parse("1231", NOW, ZoneOffset.UTC)).isEqualTo(1_767_139_200L); // 2025-12-31: a later month is last year's
    assertThat(ParseTime.parse("01.01", NOW, ZoneOffset.UTC)).isEqualTo(1_767_225_600L); // 2026-01-01
    assertThat(ParseTime.parse("1124-10:00", NOW, ZoneOffset.UTC)).isEqualTo(MIDNIGHT + 36000);
    assertThat(ParseTime.parse("2026-11-20T10:00", NOW, ZoneOffset.UTC)).isEqualTo(MIDNIGHT - 4 * 86400 + 36000);
    assertThat(ParseTime.parse("midnight", NOW, ZoneOffset.UTC)).isEqualTo(MIDNIGHT);
    assertThat(ParseTime.parse("noon", NOW, ZoneOffset.UTC)).isEqualTo(MIDNIGHT + 43200);
    assertThat(ParseTime.parse("tomorrow", NOW, ZoneOffset.UTC)).isEqualTo(MIDNIGHT + 86400);
    assertThatThrownBy(() -> ParseTime.parse("11202025", NOW, ZoneOffset.UTC))
        .hasMessage("Invalid time specification (pos=6): 11202025");
    assertThatThrownBy(() -> ParseTime.parse("bogus", NOW, ZoneOffset.UTC))
        .hasMessage("Invalid time specification (pos=0): bogus");
  }

  @Test
  void fieldsArePrefixesWithWidthsAndAllExpands() throws Exception {
    List<SacctField> f = SacctOptions.fields("jobi,node%-30,ncpu,");
    assertThat(f).extracting(SacctField::name).containsExactly("JobID", "NodeList", "NCPUS");
    assertThat(f.get(1).width()).isEqualTo(-30);
    assertThat(SacctOptions.fields("a")).hasSize(SacctField.ALL.size());
    assertThatThrownBy(() -> SacctOptions.fields("jobid,Bogus"))
        .hasMessage("sacct: error: Invalid field requested: \"Bogus\"");
  }

  @Test
  void sacctFormatReplacesTheDefaultButNotFormatOrBrief() throws Exception {
    Map<String, String> env = Map.of("SACCT_FORMAT", "jobid,user");
    assertThat(parse(env).fields()).extracting(SacctField::name).containsExactly("JobID", "User");
    assertThat(parse(env, "-o", "state").fields()).extracting(SacctField::name).containsExactly("State");
    assertThat(parse(env, "-o", "user", "-b").fields()).extracting(SacctField::name)
        .containsExactly("User", "JobID", "State", "ExitCode");
  }

  @Test
  void refusalsCarrySlurmsWords() {
    assertThatThrownBy(() -> parse("-s", "SE")).hasMessage("sacct: fatal: job state SE is not supported / accounted");
    assertThatThrownBy(() -> parse("-s", "cd,zz")).hasMessage("sacct: fatal: unrecognized job state value 'zz'");
    assertThatThrownBy(() -> parse("-j", "12_x")).hasMessage("sacct: fatal: Bad job array element specified: 12");
    assertThatThrownBy(() -> parse("-j", "12_1.x")).hasMessage("sacct: fatal: Bad step specified: 12_1");
    assertThatThrownBy(() -> parse("-u", "nosuchuser")).hasMessage("sacct: error: Invalid user id: nosuchuser");
    assertThatThrownBy(() -> parse("-Z")).hasMessage("sacct: invalid option -- 'Z'");
    assertThatThrownBy(() -> parse("-j")).hasMessage("sacct: option requires an argument -- 'j'");
    assertThatThrownBy(() -> parse("extra", "more"))
        .hasMessage("sacct: error: Unknown arguments:\nsacct: error:  extra\nsacct: error:  more");
  }

  @Test
  void usersByNameOrUidAndMinusOneMeansEveryone() throws Exception {
    assertThat(parse("-u", "alice,1002").users()).containsExactlyInAnyOrder(1001, 1002);
    SacctOptions all = parse("-u", "-1");
    assertThat(all.allUsers()).isTrue();
    assertThat(all.users()).isEmpty();
  }

  @Test
  void parsableAndDelimiter() throws Exception {
    SacctOptions p = parse("-p", "--delimiter=::");
    assertThat(p.delimiter()).isEqualTo("::");
    assertThat(p.trailingDelimiter()).isTrue();
    assertThat(parse("--delimiter=,").delimiter()).isNull(); // only with -p/-P
    assertThat(parse("-P").trailingDelimiter()).isFalse();
  }

  @Test
  void unitsConvertAsConvertNumUnit() {
    assertThat(Units.DEFAULT.format(3256320, Units.NONE, 1024)).isEqualTo("3180K");
    assertThat(Units.DEFAULT.format(1536 * 1024, Units.NONE, 1024)).isEqualTo("1.50M");
    assertThat(Units.DEFAULT.format(4000, Units.MEGA, 1024)).isEqualTo("4000M");
    assertThat(Units.DEFAULT.format(1024, Units.MEGA, 1024)).isEqualTo("1G");
    assertThat(new Units(-1, true).format(1024, Units.MEGA, 1024)).isEqualTo("1024M");
    assertThat(new Units(3, false).format(100, Units.MEGA, 1024)).isEqualTo("0.10G");
    assertThat(new Units(2, false).format(3256320, Units.NONE, 1024)).isEqualTo("3.11M");
  }
}
