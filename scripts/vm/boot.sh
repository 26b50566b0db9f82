#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boot the guest once under TCG with a hard bound:  scripts/vm/boot.sh VMLINUZ INITRD LOG SECONDS
# The serial console goes to LOG.  UIRQ_VM_SMP sets the guest's CPUs (default 1: TCG runs
# one host thread per CPU and the machine has two cores for everything).  Exit 0 when qemu ended by itself, 124 when the bound
# killed it (a hang), qemu's status otherwise.  The verdict itself is read from LOG.
set -uo pipefail
kernel=$1 initrd=$2 log=$3 bound=$4
# KVM here is nested and hangs silently, so TCG always.  panic=-1 with -no-reboot turns a
# guest crash into qemu's exit instead of a reboot loop.
# Two edu devices: /init binds the first to uio_pci_generic, the second to vfio-pci.  VFIO
# needs an IOMMU (Debian's kernel has no no-IOMMU mode): q35's intel-iommu, which must come
# before the devices it translates, and intel_iommu=on, which gives each edu its own group.
# no_timer_check: at boot the kernel checks that the timer interrupt arrives through the
# (remapped) IO-APIC within a short busy-wait, which TCG on a loaded host can overrun: "Kernel
# panic - not syncing: timer doesn't work through Interrupt-remapped IO-APIC" (1 boot in 10
# during a repeat series).  KVM guests skip the same check; the timer works, it is only late.
timeout -k 10 "$bound" qemu-system-x86_64 -accel tcg -cpu max -m 512M -smp "${UIRQ_VM_SMP:-1}" \
	-machine q35 -nographic -monitor none -serial stdio -no-reboot -nic none \
	-device intel-iommu -device edu -device edu \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 loglevel=1 rdinit=/init intel_iommu=on no_timer_check" \
	</dev/null >"$log" 2>&1
