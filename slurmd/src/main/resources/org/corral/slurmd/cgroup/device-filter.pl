#!/usr/bin/perl
# ConstrainDevices on cgroup v2: loads a BPF_PROG_TYPE_CGROUP_DEVICE program that denies the
# devices given ("c 195:1", "b 8:0") and allows every other, and attaches it to a cgroup with
# BPF_F_ALLOW_MULTI (a step's program then adds to its job's: every program must allow).
# Usage: perl device-filter.pl CGROUP_DIR RULE...   Exit 0 on success; the reason on stderr.
use strict;
use warnings;
use Config;
use Fcntl qw(O_RDONLY O_DIRECTORY);

my %SYS_BPF = (x86_64 => 321, aarch64 => 280, ppc64le => 361, s390x => 351, riscv64 => 280);
my ($BPF_PROG_LOAD, $BPF_PROG_ATTACH) = (5, 8);
my ($PROG_TYPE_CGROUP_DEVICE, $ATTACH_CGROUP_DEVICE, $F_ALLOW_MULTI) = (15, 6, 2);
my %DEV_TYPE = (b => 1, c => 2);    # BPF_DEVCG_DEV_BLOCK, BPF_DEVCG_DEV_CHAR

my ($dir, @rules) = @ARGV;
die "usage: device-filter.pl CGROUP_DIR RULE...\n" unless defined $dir;
my ($arch) = $Config{archname} =~ /^([^-]+)/;
my $nr = $SYS_BPF{$arch} or die "bpf(2): unknown system call number on $arch\n";

# One instruction: opcode, dst and src registers, offset, immediate.
sub insn { my ($code, $dst, $src, $off, $imm) = @_; pack('C C s< l<', $code, ($src << 4) | $dst, $off, $imm) }
my ($LDX_W, $AND_K, $JNE_K, $MOV_K, $EXIT) = (0x61, 0x57, 0x55, 0xb7, 0x95);

# r2 = device type (low 16 bits of access_type), r3 = major, r4 = minor (struct bpf_cgroup_dev_ctx)
my $prog = insn($LDX_W, 2, 1, 0, 0) . insn($AND_K, 2, 0, 0, 0xffff)
  . insn($LDX_W, 3, 1, 4, 0) . insn($LDX_W, 4, 1, 8, 0);
for my $rule (@rules) {
  my ($type, $major, $minor) = $rule =~ /^([bc])[ :](\d+):(\d+)$/ or die "bad device rule '$rule'\n";
  $prog .= insn($JNE_K, 2, 0, 4, $DEV_TYPE{$type}) . insn($JNE_K, 3, 0, 3, $major)
    . insn($JNE_K, 4, 0, 2, $minor) . insn($MOV_K, 0, 0, 0, 0) . insn($EXIT, 0, 0, 0, 0);
}
$prog .= insn($MOV_K, 0, 0, 0, 1) . insn($EXIT, 0, 0, 0, 0);

my $license = "GPL\0";
my $log = "\0" x 65536;
sub address { unpack('Q', pack('p', $_[0])) }
my $load = pack('L L Q Q L L Q L L a16 L L', $PROG_TYPE_CGROUP_DEVICE, length($prog) / 8, address($prog),
  address($license), 1, length($log), address($log), 0, 0, "corral_devices", 0, 0);
my $fd = syscall($nr, $BPF_PROG_LOAD, $load, length $load);
if ($fd < 0) {
  my $err = "$!";
  (my $text = $log) =~ s/\0.*//s;
  die "BPF_PROG_LOAD: $err" . ($text eq '' ? '' : "\n$text") . "\n";
}
sysopen(my $cg, $dir, O_RDONLY | O_DIRECTORY) or die "$dir: $!\n";
my $attach = pack('L L L L L', fileno($cg), $fd, $ATTACH_CGROUP_DEVICE, $F_ALLOW_MULTI, 0);
syscall($nr, $BPF_PROG_ATTACH, $attach, length $attach) == 0 or die "BPF_PROG_ATTACH $dir: $!\n";
exit 0;
