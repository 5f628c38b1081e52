#!/usr/bin/perl
# The node's launcher: one long-lived process per slurmd that starts batch jobs and step tasks
# as their users. slurmd writes one request a line on our stdin and reads our answers on stdout:
#   UID DIR     start what DIR/launch describes; "ended DIR" once its status is recorded
#   fifos DIR   make the named pipes DIR/in, DIR/out, DIR/err (a step task's streams, which
#               slurmd opens before asking for the start); "fifos DIR" when done ("nofifos DIR
#               REASON" when not)
# Each job or task gets a supervisor of its own (a fork of this process, as root, in a
# session of its own) that forks the job, waits for it and records how it ended, so the job and
# its record outlive both this launcher and slurmd, as Slurm's slurmstepd does. Forking from
# here costs a fraction of the exec chain it replaces (setsid, sh, setpriv, env: ~1 ms each).
# Perl is used because it can drop privileges, set the environment and exec in one process, and
# perl-base is part of every Debian system (docs/adr/0002). No user-controlled value is ever
# evaluated: paths, the environment and the command travel as NUL-separated data.
#
# Files in JOBDIR (root-owned):
#   launch      (slurmd's, read here) NUL-terminated fields: version 2, kind (batch|task), uid,
#               gid, node, step name (batch, 0, ...), work directory, stdin, stdout, stderr
#               ("" = as stdout; "-" = the named pipe in DIR), open mode (append|truncate),
#               umask, the cgroup.procs (or tasks) files the job joins (one a line, "" for
#               none), the node CPUs a batch job holds (slurmd's, not read here), the number N
#               of environment entries, N NAME=value entries, the command. Version 1 had no
#               cgroup and CPU fields: the files joined were listed in DIR/cgroup.
#   record      lines "KEY VALUE", each appended in one write (a reader takes whole lines only):
#                 wrapper PID TICKS  the supervisor: its pid and start time (clock ticks after
#                                    boot, /proc/PID/stat), to tell it from a later holder of the pid
#                 pid PID            the job, which also leads its process group and session
#                 usage U S RSS      what the job and the children it waited for used, as
#                                    getrusage(RUSAGE_CHILDREN) says: user and system CPU in
#                                    milliseconds, largest resident set in KiB (-1: not known)
#                 status STATUS      the job's wait(2) status: code << 8, or the signal (| 0x80: core)
#   launch.err  only when the job could not start: why (Slurm's words where it has some)
# One file for all the records, and launch.err only on failure: each file created costs more
# than the rest of a launch on a busy ext4 (inode allocation skips the many just deleted).
use strict;
use warnings;
use POSIX ();

my $GROUP_CACHE_SECONDS = 60;
my %groups_of;    # uid => [time looked up, "gid gid ..."]

$| = 1;
POSIX::setsid();
POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new());
$SIG{PIPE} = 'IGNORE';    # slurmd gone: the record on disk is what counts
$SIG{CHLD} = 'IGNORE';    # supervisors are reaped by the kernel
syswrite(STDOUT, "ready\n");

# Requests are read with sysread, never through a buffered handle: a child that reopens STDIN
# would otherwise have perl seek its new file to where the buffered requests stood.
my $pending = '';
while (sysread(STDIN, my $chunk, 65536)) {
  $pending .= $chunk;
  while ($pending =~ s/^([^\n]*)\n//) {
    request($1);
  }
}
exit 0;

sub request {
  my ($line) = @_;
  if ($line =~ m{^fifos (/.+)$}) {
    make_fifos($1);
    return;
  }
  my ($uid, $dir) = $line =~ m{^([0-9]+) (/.+)$} or do {
    warn "job-launcher: ignoring a malformed request\n";
    return;
  };
  my $groups = supplementary_groups($uid);
  my $pid = fork();
  if (!defined $pid) {
    record_failure($dir, "cannot fork the job's supervisor: $!");
  } elsif ($pid == 0) {
    supervise($dir, $groups);
  }
}

sub make_fifos {
  my ($dir) = @_;
  for my $name (qw(in out err)) {
    next if -p "$dir/$name" || POSIX::mkfifo("$dir/$name", 0600);
    syswrite(STDOUT, "nofifos $dir cannot make $dir/$name: $!\n");
    return;
  }
  syswrite(STDOUT, "fifos $dir\n");
}

# The user's groups as initgroups(3) would set them (through NSS, like id(1)), kept a minute:
# the first job of a user pays for the lookup, the rest of a burst does not. undef: no such user.
sub supplementary_groups {
  my ($uid) = @_;
  my $now = time;
  my $cached = $groups_of{$uid};
  return $cached->[1] if $cached && $now - $cached->[0] < $GROUP_CACHE_SECONDS;
  my $name = getpwuid($uid);
  my $list;
  if (defined $name) {
    $list = '';
    my $pid = open(my $id, '-|');
    if (defined $pid && $pid == 0) {
      $SIG{CHLD} = 'DEFAULT';
      open(STDERR, '>', '/dev/null');
      exec { 'id' } 'id', '-G', '--', $name or POSIX::_exit(127);
    }
    if (defined $pid) {
      local $SIG{CHLD} = 'DEFAULT';
      $list = <$id> // '';
      close $id;
      chomp $list;
      $list = '' unless $list =~ /^[0-9]+( [0-9]+)*$/;
    }
  }
  $groups_of{$uid} = [$now, $list];
  return $list;
}

sub supervise {
  my ($dir, $groups) = @_;
  $SIG{CHLD} = 'DEFAULT';
  POSIX::setsid();
  open(my $record, '>>', "$dir/record") or fail_early($dir, undef, "cannot create $dir/record: $!");
  syswrite($record, "wrapper $$ " . start_ticks($$) . "\n");
  my @launch = as_version2($dir, read_fields("$dir/launch"));
  $0 = "slurmstepd: [$launch[5]]" if @launch > 5;    # what ps shows, as for Slurm's
  # Until the job's own files are open, its stderr is this pipe: what it says there (a file it
  # cannot open, a user that does not exist) is why it could not start.
  pipe(my $said, my $says) or fail_early($dir, $record, "cannot make a pipe: $!");
  my $job = fork();
  fail_early($dir, $record, "cannot fork the job: $!") if !defined $job;
  if ($job == 0) {
    close $said;
    run_job($dir, $record, $groups, $says, @launch);
  }
  close $says;
  my $why = '';
  1 while length($why) < 65536 && sysread($said, $why, 65536 - length($why), length($why));
  close $said;
  waitpid($job, 0);
  my $status = $?;
  record_usage($record);
  write_file("$dir/launch.err", $why) if $why ne '';
  # The job ends with its script, as in Slurm: processes it left behind in its group go too.
  kill 'KILL', -$job;
  report_oom_kills($dir, $groups, @launch);
  finish($dir, $record, $status);
}

# The reaped job's usage, as slurmstepd takes it from wait4: CPU from times(), the largest
# resident set from getrusage(2) where this architecture's syscall number is known.
sub record_usage {
  my ($record) = @_;
  my (undef, undef, $cuser, $csys) = times();
  my $rss = -1;
  my %getrusage = (x86_64 => 98, aarch64 => 165, riscv64 => 165, ppc64le => 77, s390x => 77);
  my $nr = $getrusage{(POSIX::uname())[4]};
  if (defined $nr) {
    my $buf = "\0" x 144;    # struct rusage: 2 timevals, then 14 longs
    if (syscall($nr, -1, $buf) == 0) {    # RUSAGE_CHILDREN
      $rss = (unpack('l!5', $buf))[4];
    }
  }
  syswrite($record, sprintf("usage %d %d %d\n", $cuser * 1000, $csys * 1000, $rss));
}

sub finish {
  my ($dir, $record, $status) = @_;
  syswrite($record, "status $status\n") if $record;
  syswrite(STDOUT, "ended $dir\n");
  POSIX::_exit(0);
}

# Becomes the job: joins its cgroups as root, drops to the user, opens the job's files as the
# user, and execs the command with exactly the given environment. A batch job's launch errors go
# to the supervisor (launch.err); a task's go to its stream to srun, as slurmstepd's do.
sub run_job {
  my ($dir, $record, $groups, $says, $version, $kind, $uid, $gid, $node, $step, $work, $in, $out,
      $err, $mode, $mask, $cgroups, $cores, $count, @words) = @_;
  POSIX::setsid();
  open(STDERR, '>&', $says) or POSIX::_exit(1);
  close $says;
  open(STDIN, '<', '/dev/null');
  open(STDOUT, '>', '/dev/null');
  defined $count && $version eq '2' && $count =~ /^[0-9]+$/ && @words > $count
      or die_launch("malformed launch file");
  my $task = $kind eq 'task';
  my %stream;
  if ($task) {
    # As root (the pipes are root's): they connect only once slurmd has its ends open.
    for my $name (qw(in out err)) {
      next unless $name eq 'err' || ($name eq 'in' ? $in : $name eq 'out' ? $out : $err) eq '-';
      open($stream{$name}, $name eq 'in' ? '<' : '>', "$dir/$name")
          or die_launch("cannot open the task's $name stream: $!");
    }
    open(STDERR, '>&', $stream{err}) or POSIX::_exit(1);
  }
  defined $groups or die_launch("cannot launch as uid $uid: no such user");
  syswrite($record, "pid $$\n");
  close $record;
  join_cgroups($cgroups);
  $) = join(' ', $gid, $gid, grep { $_ ne $gid } split(/ /, $groups));
  POSIX::setgid($gid) or die_launch("cannot set group $gid: $!");
  POSIX::setuid($uid) or die_launch("cannot set user $uid: $!");
  ($< == $uid && $> == $uid && $( =~ /^$gid\b/) or die_launch("cannot become user $uid");
  umask(oct($mask));
  my $write = $mode eq 'append' ? '>>' : '>';
  open_job_file(\*STDIN, 'stdin', $in, '<', $stream{in});
  open_job_file(\*STDOUT, 'stdout', $out, $write, $stream{out});
  if ($err eq '') {
    open(STDERR, '>&', \*STDOUT) or die_launch("cannot duplicate stdout: $!");
  } else {
    open_job_file(\*STDERR, 'stderr', $err, $write, $stream{err});
  }
  close $_ for grep { defined } @stream{qw(in out)};
  if (!chdir($work)) {
    my $msg = "slurmstepd-$node: error: couldn't chdir to `$work': $!: going to /tmp instead\n";
    if ($task) {
      # Once per task, on the stream to srun even with -o/-e (slurmd adds the step daemon's
      # own line once per node), as Slurm 22.05 does.
      syswrite($stream{err}, $msg);
    } else {
      print STDERR $msg, $msg;    # once from the step daemon, once from the task, as Slurm
    }
    chdir('/tmp') or POSIX::_exit(1);
  }
  close $stream{err} if $task;
  my @env = splice(@words, 0, $count);
  %ENV = ();
  for my $entry (@env) {
    my ($name, $value) = split(/=/, $entry, 2);
    $ENV{$name} = $value if defined $value && $name ne '';
  }
  $ENV{SLURM_TASK_PID} = $$;
  # Nothing of the launcher's signal handling reaches the job.
  $SIG{$_} = 'DEFAULT' for qw(HUP INT QUIT PIPE ALRM TERM USR1 USR2 CHLD TSTP TTIN TTOU XCPU XFSZ WINCH URG);
  { no warnings 'exec'; exec { $words[0] } @words; }
  my $errno = $! + 0;
  # A relative path is named from the work directory, a bare name as given, as Slurm does.
  my $shown = $words[0] =~ m{/} && $words[0] !~ m{^/} ? current_dir() . "/$words[0]" : $words[0];
  print STDERR "slurmstepd-$node: error: execve(): $shown: $!\n";
  POSIX::_exit($errno || 1);
}

sub join_cgroups {
  my ($cgroups) = @_;
  for my $procs (split(/\n/, $cgroups)) {
    next if $procs eq '';
    my $fh;
    open($fh, '>>', $procs) && syswrite($fh, "$$\n") && close($fh)
        or die_launch("cannot join the job cgroup: $procs");
  }
}

# Opens PATH on HANDLE (OP is <, > or >>), or the task's STREAM for "-"; on failure says why as
# Slurm's step daemon does.
sub open_job_file {
  my ($handle, $what, $path, $op, $stream) = @_;
  if ($path eq '-') {
    open($handle, $op eq '<' ? '<&' : '>&', $stream) and return;
  } else {
    open($handle, $op, $path) and return;
  }
  die_launch("Could not open $what file $path: $!");
}

sub current_dir {
  my $dir = readlink('/proc/self/cwd');
  return defined $dir ? $dir : '.';
}

# After the job ended: OOM kills in its cgroups (v1 memory.oom_control, v2 memory.events) are
# said on the job's stderr as slurmstepd does, written as the user (the file is the user's).
sub report_oom_kills {
  my ($dir, $groups, $version, $kind, $uid, $gid, $node, $step, $work, $in, $out, $err, $mode, $mask, $cgroups) = @_;
  return unless defined $cgroups && $kind eq 'batch' && defined $groups;
  my $kills = 0;
  for my $procs (split(/\n/, $cgroups)) {
    next if $procs eq '';
    (my $cgroup = $procs) =~ s{/[^/]*$}{};
    for my $counter ("$cgroup/memory.oom_control", "$cgroup/memory.events") {
      open(my $fh, '<', $counter) or next;
      while (<$fh>) {
        $kills += $1 if /^oom_kill ([0-9]+)$/;
      }
      close $fh;
    }
  }
  return unless $kills > 0;
  my $file = $err ne '' ? $err : $out;
  my $pid = fork();
  return unless defined $pid;
  if ($pid == 0) {
    $) = join(' ', $gid, $gid, grep { $_ ne $gid } split(/ /, $groups));
    POSIX::setgid($gid) && POSIX::setuid($uid) && $< == $uid or POSIX::_exit(1);
    open(my $fh, '>>', $file) or POSIX::_exit(1);
    print {$fh} "slurmstepd-$node: error: Detected $kills oom-kill event(s) in StepId=$step cgroup."
        . " Some of your processes may have been killed by the cgroup out-of-memory handler.\n";
    close $fh;
    POSIX::_exit(0);
  }
  waitpid($pid, 0);
}

sub die_launch {
  my ($message) = @_;
  print STDERR "$message\n";
  POSIX::_exit(1);
}

# A supervisor that cannot start the job at all: it failed to launch.
sub fail_early {
  my ($dir, $record, $message) = @_;
  print STDERR "job-launcher: $dir: $message\n";
  write_file("$dir/launch.err", "$message\n");
  finish($dir, $record, 1 << 8);
}

sub record_failure {
  my ($dir, $message) = @_;
  write_file("$dir/launch.err", "$message\n");
  if (open(my $record, '>>', "$dir/record")) {
    syswrite($record, "status " . (1 << 8) . "\n");
    close $record;
  }
  syswrite(STDOUT, "ended $dir\n");
}

# The launch fields in version 2's order: a version 1 file (an earlier slurmd's) gets its
# cgroup list from DIR/cgroup and no CPUs.
sub as_version2 {
  my ($dir, @fields) = @_;
  return @fields unless @fields > 12 && $fields[0] eq '1';
  my $cgroups = '';
  if (open(my $list, '<', "$dir/cgroup")) {
    local $/;
    $cgroups = <$list> // '';
    close $list;
  }
  splice(@fields, 12, 0, $cgroups, '');
  $fields[0] = '2';
  return @fields;
}

sub read_fields {
  my ($file) = @_;
  open(my $fh, '<', $file) or return ();
  local $/;
  my $text = <$fh> // '';
  close $fh;
  my @fields = split(/\0/, $text, -1);
  pop @fields;    # what follows the last field's terminator
  return @fields;
}

sub write_file {
  my ($file, $text) = @_;
  open(my $fh, '>', $file) or return;
  syswrite($fh, $text);
  close $fh;
}

sub start_ticks {
  my ($pid) = @_;
  open(my $fh, '<', "/proc/$pid/stat") or return -1;
  my $stat = <$fh> // '';
  close $fh;
  $stat =~ s/^.*\) //s;
  my @fields = split(/ /, $stat);
  return $fields[19] // -1;    # field 22 of stat(5), counted after the command's name
}
