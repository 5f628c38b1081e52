#!/usr/bin/perl
# The node's launcher: one long-lived process per slurmd that starts batch jobs and step tasks
# as their users. slurmd writes one request a line on our stdin and reads our answers on stdout:
#   UID DIR     start what DIR/launch describes; "ended DIR" once its status is recorded
#   fifos DIR   make the named pipes DIR/in, DIR/out, DIR/err (a step task's streams, which
#               slurmd opens before asking for the start); "fifos DIR" when done ("nofifos DIR
#               REASON" when not)
# This process is every job's supervisor (as slurmstepd is in Slurm): it forks each job (which
# leads a session of its own), reaps it and records how it ended. One fork per job, from a small
# process: forking a supervisor per job as well cost as much again (docs/adr/0002). When slurmd
# goes (end of our stdin) we take no more requests but stay until our last job has ended and
# is recorded, so jobs and their records outlive slurmd, and a restarted slurmd re-adopts them
# from the spool. Perl is used because it can drop privileges, set the environment and exec in
# one process, and perl-base is part of every Debian system. No user-controlled value is ever
# evaluated: paths, the environment and the command travel as NUL-separated data.
#
# Files in JOBDIR (root-owned):
#   launch      (slurmd's, read here) NUL-terminated fields: version 2, kind (batch|task), uid,
#               gid, node, step name (batch, 0, ...), work directory, stdin, stdout, stderr
#               ("" = as stdout; "-" = the named pipe in DIR), open mode (append|truncate),
#               umask, the cgroup.procs (or tasks) files the job joins (one a line, "" for
#               none), the node CPUs a batch job holds (slurmd's, not read here), in version 3
#               "TASKID SOCKET" (the step's PMI server: the task gets a stream to it, connected
#               here as root, announced with "TASKID\n" and named in PMI_FD), the number N of
#               environment entries, N NAME=value entries, the command. Version 1 had no cgroup
#               and CPU fields: the files joined were listed in DIR/cgroup. Version 2 has no PMI.
#   record      lines "KEY VALUE", each appended in one write (a reader takes whole lines only):
#                 wrapper PID TICKS  the job's supervisor (this launcher): its pid and start time
#                                    (clock ticks after boot, /proc/PID/stat), to tell it from a
#                                    later holder of the pid
#                 pid PID            the job, which also leads its process group and session
#                 usage U S RSS      what the job and the children it waited for used, as
#                                    wait4(2) says: user and system CPU in milliseconds, largest
#                                    resident set in KiB (absent where wait4's number is unknown)
#                 status STATUS      the job's wait(2) status: code << 8, or the signal (| 0x80: core)
#   launch.err  only when the job could not start: why (Slurm's words where it has some)
# One file for all the records, and launch.err only on failure: each file created costs more
# than the rest of a launch on a busy ext4 (inode allocation skips the many just deleted).
use strict;
use warnings;
use POSIX ();
use Socket ();
use Fcntl ();

my $GROUP_CACHE_SECONDS = 60;
# A SIGCHLD that lands just before select() blocks is only seen at its next wake-up: with jobs
# running, select wakes at least this often.
my $REAP_BACKSTOP_SECONDS = 1;
my $EINTR = 4;
my %groups_of;    # uid => [time looked up, "gid gid ..."]
my %running;      # job pid => [DIR, read end of its launch-error pipe, launch fields, groups]

$| = 1;
POSIX::setsid();
POSIX::sigprocmask(POSIX::SIG_SETMASK(), POSIX::SigSet->new());
# Nothing of slurmd's signal handling reaches the jobs (a daemon started in the background
# inherits SIGINT and SIGQUIT ignored). Set once here, not per job: exec resets what we catch.
$SIG{$_} = 'DEFAULT' for qw(HUP INT QUIT ALRM TERM USR1 USR2 TSTP TTIN TTOU XCPU XFSZ WINCH URG);
$SIG{PIPE} = 'IGNORE';      # slurmd gone: the record on disk is what counts
$SIG{CHLD} = sub { };       # only wakes select(): jobs are reaped in the loop
my $self = "wrapper $$ " . start_ticks($$) . "\n";
my $wait4 = { x86_64 => 61, aarch64 => 260, riscv64 => 260, ppc64le => 114, ppc64 => 114,
    s390x => 114 }->{(POSIX::uname())[4]};
syswrite(STDOUT, "ready\n");

# Requests are read with sysread, never through a buffered handle: a child that reopens STDIN
# would otherwise have perl seek its new file to where the buffered requests stood.
my $pending = '';
my $reading = 1;
while ($reading || %running) {
  reap();
  my $wanted = '';
  vec($wanted, fileno(STDIN), 1) = 1 if $reading;
  my $ready = select(my $readable = $wanted, undef, undef, %running ? $REAP_BACKSTOP_SECONDS : undef);
  next unless $reading && $ready > 0;
  my $read = sysread(STDIN, my $chunk, 65536);
  if (!$read) {
    $reading = 0 unless !defined $read && $! == $EINTR;
    next;
  }
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
  eval { start($dir, supplementary_groups($uid)); 1 } or warn "job-launcher: $dir: $@";
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
      open(STDERR, '>', '/dev/null');
      exec { 'id' } 'id', '-G', '--', $name or POSIX::_exit(127);
    }
    if (defined $pid) {
      $list = <$id> // '';
      close $id;
      chomp $list;
      $list = '' unless $list =~ /^[0-9]+( [0-9]+)*$/;
    }
  }
  $groups_of{$uid} = [$now, $list];
  return $list;
}

sub start {
  my ($dir, $groups) = @_;
  my $record;
  if (!open($record, '>>', "$dir/record")) {
    print STDERR "job-launcher: $dir: cannot create $dir/record: $!\n";
    write_file("$dir/launch.err", "cannot create $dir/record: $!\n");
    syswrite(STDOUT, "ended $dir\n");
    return;
  }
  syswrite($record, $self);
  my @launch = as_version3($dir, read_fields("$dir/launch"));
  # Until the job's own files are open, its stderr is this pipe: what it says there (a file it
  # cannot open, a user that does not exist) is why it could not start. Its end closes on exec.
  pipe(my $said, my $says) or return fail_start($dir, $record, "cannot make a pipe: $!");
  my $job = fork();
  return fail_start($dir, $record, "cannot fork the job: $!") if !defined $job;
  if ($job == 0) {
    close $said;
    run_job($dir, $record, $groups, $says, @launch);
  }
  close $says;
  close $record;
  $running{$job} = [$dir, $said, \@launch, $groups];
}

# Collects every job that has ended.
sub reap {
  while (my ($job, $status, $usage) = wait_any()) {
    my $ended = delete $running{$job} or next;    # not a job: id(1), an OOM note
    eval { recorded_end($job, $status, $usage, @$ended); 1 } or warn "job-launcher: $ended->[0]: $@";
  }
}

# (pid, wait status, usage line or undef) of a child that has ended, or () when none has.
sub wait_any {
  if (defined $wait4) {
    my ($status, $usage) = ("\0" x 4, "\0" x 144);    # int; struct rusage: 2 timevals, 14 longs
    my $job = syscall($wait4, -1, $status, 1, $usage);    # WNOHANG
    return () unless $job > 0;
    my ($us, $uus, $ss, $sus, $rss) = unpack('l!5', $usage);
    return ($job, unpack('i', $status),
        sprintf("usage %d %d %d\n", $us * 1000 + $uus / 1000, $ss * 1000 + $sus / 1000, $rss));
  }
  my $job = waitpid(-1, 1);    # WNOHANG
  return $job > 0 ? ($job, $?, undef) : ();
}

sub recorded_end {
  my ($job, $status, $usage, $dir, $said, $launch, $groups) = @_;
  my $why = '';
  # The job has exited or exec'd: nothing holds the pipe's other end any more.
  1 while length($why) < 65536 && sysread($said, $why, 65536 - length($why), length($why));
  close $said;
  open(my $record, '>>', "$dir/record") or warn "job-launcher: cannot open $dir/record: $!\n";
  syswrite($record, $usage) if $record && defined $usage;
  write_file("$dir/launch.err", $why) if $why ne '';
  # The job ends with its script, as in Slurm: processes it left behind in its group go too.
  kill 'KILL', -$job;
  report_oom_kills($dir, $groups, @$launch);
  finish($dir, $record, $status);
}

sub finish {
  my ($dir, $record, $status) = @_;
  syswrite($record, "status $status\n") if $record;
  close $record if $record;
  syswrite(STDOUT, "ended $dir\n");
}

# Becomes the job: joins its cgroups as root, drops to the user, opens the job's files as the
# user, and execs the command with exactly the given environment. A batch job's launch errors go
# to the supervisor (launch.err); a task's go to its stream to srun, as slurmstepd's do.
sub run_job {
  my ($dir, $record, $groups, $says, $version, $kind, $uid, $gid, $node, $step, $work, $in, $out,
      $err, $mode, $mask, $cgroups, $cores, $pmi, $count, @words) = @_;
  POSIX::setsid();
  open(STDERR, '>&', $says) or POSIX::_exit(1);
  close $says;
  open(STDIN, '<', '/dev/null');
  open(STDOUT, '>', '/dev/null');
  defined $count && $version eq '3' && $count =~ /^[0-9]+$/ && @words > $count
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
  my $pmi_stream;
  if ($pmi ne '') {
    # As root: the server's socket is root's. The stream stays open across exec.
    my ($task_id, $path) = split(/ /, $pmi, 2);
    (socket($pmi_stream, Socket::AF_UNIX(), Socket::SOCK_STREAM(), 0)
        && connect($pmi_stream, Socket::pack_sockaddr_un($path))
        && syswrite($pmi_stream, "$task_id\n")
        && fcntl($pmi_stream, Fcntl::F_SETFD(), 0))
        or die_launch("cannot connect to the step's PMI server: $!");
  }
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
  $ENV{PMI_FD} = fileno($pmi_stream) if $pmi_stream;
  $SIG{PIPE} = 'DEFAULT';    # the launcher's one ignored signal
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

# A job that cannot be started at all: it failed to launch.
sub fail_start {
  my ($dir, $record, $message) = @_;
  print STDERR "job-launcher: $dir: $message\n";
  write_file("$dir/launch.err", "$message\n");
  finish($dir, $record, 1 << 8);
}

# The launch fields in version 3's order: a version 2 file gets no PMI field, a version 1 file
# (an earlier slurmd's) its cgroup list from DIR/cgroup, no CPUs and no PMI.
sub as_version3 {
  my ($dir, @fields) = @_;
  return @fields if @fields > 14 && $fields[0] eq '3';
  if (@fields > 13 && $fields[0] eq '2') {
    splice(@fields, 14, 0, '');
    $fields[0] = '3';
    return @fields;
  }
  return @fields unless @fields > 12 && $fields[0] eq '1';
  my $cgroups = '';
  if (open(my $list, '<', "$dir/cgroup")) {
    local $/;
    $cgroups = <$list> // '';
    close $list;
  }
  splice(@fields, 12, 0, $cgroups, '', '');
  $fields[0] = '3';
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
