/* Runs the real table box firmware (.elf) in simavr. UART0 appears on a pty (simavr's
 * uart_pty part); buttons and resets are driven from stdin.
 *
 *   tablebox-sim FIRMWARE.elf [--speed X] [--eeprom-ms MS]
 *          X: 1 = real time (default), 0 = as fast as possible, 4 = four times real time
 *          MS: how long one EEPROM byte takes to write (default 3.4, the ATmega328P's
 *          datasheet time). simavr itself writes at once and reports the EEPROM ready at
 *          once; the chip is busy for milliseconds, so the harness keeps EECR's EEPE bit
 *          set that long after each write. 0: simavr's instant writes.
 * stdout:  "PTY /dev/pts/N"  once the port exists (use this path: the /tmp symlink that
 *          uart_pty also makes is shared between parallel runs), then "RUNNING",
 *          "LED <hex>" whenever the lights change, "PRESSED <n> <ns>" when tap n goes
 *          down (CLOCK_MONOTONIC, for latency measurements), "TAPPED <n>" after it.
 * stdin:   START                 run the MCU (open the pty first: pyserial flushes input
 *                                when it opens a port)
 *          PRESS p1 roll | RELEASE p1 roll
 *          TAP p1 roll HOLD_MS GAP_MS    press, hold, release, wait (in MCU time)
 *          BURST COUNT HOLD_MS GAP_MS   COUNT times: press the eight non-roll buttons
 *                                together (a load test)
 *          RESET                 reboot the MCU as its reset pin does (RAM kept, EEPROM kept)
 *          POWERCUT              cut the power and restore it (RAM garbled, EEPROM kept)
 *          ERASE                 erase the EEPROM to 0xFF (a re-flash with a chip erase, or
 *                                another box), then power-cycle
 *          IDLE MS               print "IDLED <n>" once MS ms of MCU time have passed after
 *                                the taps queued (the MCU's clock, not the host's: a
 *                                starved simulation runs behind the wall clock)
 *          TEAR                  cut the power as soon as the firmware has written part of
 *                                an EEPROM record (a write torn by a power cut); prints
 *                                "TORN <bytes written>"
 *          QUIT
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "avr_adc.h"
#include "avr_eeprom.h"
#include "avr_ioport.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "uart_pty.h"

#define F_CPU 16000000UL
#define MAX_SCHEDULE 4096

static const char *BUTTONS[5] = {"roll", "ready", "shift", "strike", "undo"};

typedef struct { uint64_t cycle; char port; int pin; int level; int tap_done; } action_t;
/* tap_done: 0 none, 1 the release that ends a tap, 2 the press that starts one,
 * 3 an IDLE's end (no pin) */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char pending[256][64];
static int pending_head, pending_tail;
/* Taps are queued in time order, so the schedule is a FIFO: only its head is due. */
static action_t schedule[MAX_SCHEDULE];
static int sched_head, n_schedule;
static uint64_t tap_cursor;  /* MCU cycle when the next TAP may start */
static int taps_done, taps_pressed, idles_done;
static volatile int started, quit;
static int tear_armed;
static uint8_t ee_before[1024];

/* EEPROM write time. EECR is I/O 0x1F (data address 0x3F) on the ATmega328P; EEPE is
 * its bit 1. A write strobe (EEPE set) makes the chip busy until ee_busy_until: reads
 * of EECR show EEPE set until then, as on the real part, so avr-libc's writes wait and
 * eeprom_is_ready() says no. */
#define EECR_ADDR 0x3F
#define EEPE_BIT 0x02
static uint64_t ee_write_cycles;
static uint64_t ee_busy_until;

static void eecr_written(avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)addr;
    (void)param;
    if (ee_write_cycles && (v & EEPE_BIT))
        ee_busy_until = avr->cycle + ee_write_cycles;
}

static uint8_t eecr_read(avr_t *avr, avr_io_addr_t addr, void *param)
{
    (void)param;
    uint8_t v = avr->data[addr];
    return avr->cycle < ee_busy_until ? (uint8_t)(v | EEPE_BIT) : (uint8_t)(v & ~EEPE_BIT);
}

static void eeprom_copy(avr_t *avr, uint8_t *to)
{
    avr_eeprom_desc_t d = {.ee = to, .offset = 0, .size = 1024};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_GET, &d);
}

static void *stdin_thread(void *arg)
{
    (void)arg;
    char buf[64];
    while (fgets(buf, sizeof buf, stdin)) {
        buf[strcspn(buf, "\r\n")] = 0;
        pthread_mutex_lock(&lock);
        if (!strcmp(buf, "START"))
            started = 1;
        else if (!strcmp(buf, "QUIT"))
            quit = 1;
        else {
            /* A full command queue waits for the simulation to catch up: never drop. */
            while ((pending_head + 1) % 256 == pending_tail && !quit) {
                pthread_mutex_unlock(&lock);
                usleep(1000);
                pthread_mutex_lock(&lock);
            }
            snprintf(pending[pending_head], 64, "%s", buf);
            pending_head = (pending_head + 1) % 256;
        }
        pthread_mutex_unlock(&lock);
    }
    quit = 1;
    return NULL;
}

static int button_pin(const char *player, const char *name, char *port, int *pin)
{
    int index = -1;
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, BUTTONS[i]))
            index = i;
    if (index < 0)
        return 0;
    if (!strcmp(player, "p1")) {
        *port = 'D';
        *pin = 2 + index;
    } else if (!strcmp(player, "p2")) {
        *port = 'B';
        *pin = index;
    } else {
        return 0;
    }
    return 1;
}

static void set_pin(avr_t *avr, char port, int pin, int level)
{
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(port), pin), level);
}

static void add_action(uint64_t cycle, char port, int pin, int level, int tap_done)
{
    if (n_schedule < MAX_SCHEDULE) {
        schedule[(sched_head + n_schedule) % MAX_SCHEDULE] =
            (action_t){cycle, port, pin, level, tap_done};
        n_schedule++;
    } else {
        fprintf(stderr, "harness: too many taps queued\n");
    }
}

static void release_all(avr_t *avr)
{
    /* Buttons are active low: released reads high. simavr ignores raising an irq to the
     * value it already has, and a reset clears the pins, so go through low first (the
     * firmware never samples it: nothing runs in between). */
    for (int i = 0; i < 5; i++) {
        set_pin(avr, 'D', 2 + i, 0);
        set_pin(avr, 'D', 2 + i, 1);
        set_pin(avr, 'B', i, 0);
        set_pin(avr, 'B', i, 1);
    }
}

static void handle(avr_t *avr, char *cmd)
{
    char verb[16], player[8], name[16];
    int hold = 0, gap = 0;
    char port;
    int pin;
    int n = sscanf(cmd, "%15s %7s %15s %d %d", verb, player, name, &hold, &gap);
    if (n >= 1 && !strcmp(verb, "TEAR")) {
        eeprom_copy(avr, ee_before);
        tear_armed = 1;
        return;
    }
    int power = n >= 1 && (!strcmp(verb, "POWERCUT") || !strcmp(verb, "ERASE"));
    if (n >= 1 && !strcmp(verb, "ERASE")) {
        static uint8_t blank[1024];
        memset(blank, 0xFF, sizeof blank);
        avr_eeprom_desc_t d = {.ee = blank, .offset = 0, .size = sizeof blank};
        avr_ioctl(avr, AVR_IOCTL_EEPROM_SET, &d);
    }
    if (power) {
        /* Without power SRAM forgets: what it holds after is noise, not zeros. */
        for (uint32_t a = avr->ioend + 1; a <= avr->ramend; a++)
            avr->data[a] = (uint8_t)rand();
    }
    if (n >= 1 && (power || !strcmp(verb, "RESET"))) {
        /* A reset lets a byte being written finish; a power cut ends it. */
        uint64_t busy = !power && ee_busy_until > avr->cycle ? ee_busy_until - avr->cycle : 0;
        avr_reset(avr);
        ee_busy_until = avr->cycle + busy;
        release_all(avr);
        /* The cycle counter may restart: pending taps start over from now. */
        for (int i = 0; i < n_schedule; i++)
            schedule[(sched_head + i) % MAX_SCHEDULE].cycle = avr->cycle;
        tap_cursor = avr->cycle;
        printf("%s\n", verb);
        fflush(stdout);
        return;
    }
    if (n == 2 && !strcmp(verb, "IDLE")) {
        uint64_t start = avr->cycle > tap_cursor ? avr->cycle : tap_cursor;
        tap_cursor = start + (uint64_t)atoi(player) * (F_CPU / 1000);
        add_action(tap_cursor, 0, 0, 0, 3);
        return;
    }
    if (n >= 3 && !strcmp(verb, "BURST")) {
        port = 'D';
        pin = 0;
    } else if (n < 3 || !button_pin(player, name, &port, &pin)) {
        fprintf(stderr, "harness: bad command '%s'\n", cmd);
        return;
    }
    if (!strcmp(verb, "PRESS")) {
        set_pin(avr, port, pin, 0);
    } else if (!strcmp(verb, "RELEASE")) {
        set_pin(avr, port, pin, 1);
    } else if (!strcmp(verb, "TAP") && n == 5) {
        uint64_t start = avr->cycle > tap_cursor ? avr->cycle : tap_cursor;
        uint64_t per_ms = F_CPU / 1000;
        add_action(start, port, pin, 0, 2);
        add_action(start + (uint64_t)hold * per_ms, port, pin, 1, 1);
        tap_cursor = start + (uint64_t)(hold + gap) * per_ms;
    } else if (!strcmp(verb, "BURST")) {
        /* "BURST COUNT HOLD GAP": sscanf put COUNT in player, HOLD in name, GAP in hold */
        int count = atoi(player);
        gap = n >= 4 ? hold : 0;
        hold = atoi(name);
        uint64_t per_ms = F_CPU / 1000;
        uint64_t start = avr->cycle > tap_cursor ? avr->cycle : tap_cursor;
        for (int c = 0; c < count; c++) {
            for (int i = 1; i < 5; i++) {
                add_action(start, 'D', 2 + i, 0, 0);
                add_action(start, 'B', i, 0, 0);
            }
            for (int i = 1; i < 5; i++) {
                add_action(start + (uint64_t)hold * per_ms, 'D', 2 + i, 1, 0);
                add_action(start + (uint64_t)hold * per_ms, 'B', i, 1, i == 4);
            }
            start += (uint64_t)(hold + gap) * per_ms;
        }
        tap_cursor = start;
    } else {
        fprintf(stderr, "harness: bad command '%s'\n", cmd);
    }
}

static uint8_t last_leds = 0xFF;

static void led_changed(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint8_t leds = (uint8_t)(value & 0x0F);
    if (leds != last_leds) {
        last_leds = leds;
        printf("LED %02X\n", leds);
        fflush(stdout);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char *argv[])
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIRMWARE.elf [--speed X] [--eeprom-ms MS]\n", argv[0]);
        return 2;
    }
    double speed = 1.0, eeprom_ms = 3.4;
    for (int i = 2; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--speed"))
            speed = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--eeprom-ms"))
            eeprom_ms = atof(argv[i + 1]);
    setvbuf(stdout, NULL, _IOLBF, 0);
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) {
        fprintf(stderr, "harness: cannot read %s\n", argv[1]);
        return 2;
    }
    avr_t *avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) {
        fprintf(stderr, "harness: no atmega328p in this simavr\n");
        return 2;
    }
    avr_init(avr);
    avr->frequency = F_CPU;
    avr_load_firmware(avr, &fw);
    avr->log = 0;
    ee_write_cycles = eeprom_ms > 0 ? (uint64_t)(eeprom_ms * 1e-3 * F_CPU) : 0;
    avr_register_io_write(avr, EECR_ADDR, eecr_written, NULL);
    avr_register_io_read(avr, EECR_ADDR, eecr_read, NULL);

    uart_pty_t pty;
    uart_pty_init(avr, &pty);
    uart_pty_connect(&pty, '0');
    printf("PTY %s\n", pty.port[0].slavename);
    fflush(stdout);

    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('C'), IOPORT_IRQ_PIN_ALL),
                            led_changed, NULL);
    release_all(avr);

    pthread_t reader;
    pthread_create(&reader, NULL, stdin_thread, NULL);
    while (!started && !quit)
        usleep(1000);
    printf("RUNNING\n");
    fflush(stdout);

    unsigned int noise = (unsigned int)(now_s() * 1e6) ^ (unsigned int)getpid();
    FILE *urandom = fopen("/dev/urandom", "rb");
    if (urandom) {
        if (fread(&noise, sizeof noise, 1, urandom) != 1)
            noise ^= 0x5bd1e995u;
        fclose(urandom);
    }
    double t0 = now_s();
    uint64_t c0 = avr->cycle;
    int state = cpu_Running;
    while (!quit && state != cpu_Done && state != cpu_Crashed) {
        pthread_mutex_lock(&lock);
        while (pending_tail != pending_head) {
            char cmd[64];
            memcpy(cmd, pending[pending_tail], 64);
            pending_tail = (pending_tail + 1) % 256;
            pthread_mutex_unlock(&lock);
            handle(avr, cmd);
            pthread_mutex_lock(&lock);
        }
        pthread_mutex_unlock(&lock);
        /* Due scheduled pin changes (taps), in order. */
        while (n_schedule && schedule[sched_head].cycle <= avr->cycle) {
            action_t *a = &schedule[sched_head];
            if (a->port)
                set_pin(avr, a->port, a->pin, a->level);
            if (a->tap_done == 3)
                printf("IDLED %d\n", ++idles_done);
            else if (a->tap_done == 1)
                printf("TAPPED %d\n", ++taps_done);
            else if (a->tap_done == 2) {
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                printf("PRESSED %d %lld\n", ++taps_pressed,
                       (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
            }
            sched_head = (sched_head + 1) % MAX_SCHEDULE;
            n_schedule--;
        }
        /* Floating analog inputs: noise for the firmware's entropy pool. */
        noise = noise * 1664525u + 1013904223u;
        avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC4), (noise >> 8) % 5000);
        avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC5), (noise >> 16) % 5000);
        for (int i = 0; i < 2000 && state != cpu_Done && state != cpu_Crashed; i++) {
            state = avr_run(avr);
            if (tear_armed && !(i & 63)) { /* every ~64 instructions: a few µs of MCU time */
                uint8_t now_ee[1024];
                eeprom_copy(avr, now_ee);
                int changed = 0;
                for (int a = 0; a < 1024; a++)
                    changed += now_ee[a] != ee_before[a];
                if (changed) {
                    tear_armed = 0;
                    printf("TORN %d\n", changed);
                    handle(avr, "POWERCUT");
                }
            }
        }
        if (speed > 0) {
            /* Busy firmware runs faster than real time in simulation: hold it back. And
             * when the host starves the simulator, let the lost time go instead of racing
             * to catch up: a catch-up burst would be a box running faster than any real
             * one (button taps included). */
            double mcu_s = (double)(avr->cycle - c0) / F_CPU / speed;
            double ahead = mcu_s - (now_s() - t0);
            if (ahead > 0.0005)
                usleep((useconds_t)(ahead * 1e6));
            else if (ahead < -0.02) {
                t0 = now_s();
                c0 = avr->cycle;
            }
        }
    }
    if (state == cpu_Crashed)
        fprintf(stderr, "harness: the firmware crashed (watchdog?)\n");
    uart_pty_stop(&pty);
    return state == cpu_Crashed ? 1 : 0;
}
