/* Table box firmware: buttons and dice for a tablesight table, over USB serial.
 * The wire protocol is specified in ../../PROTOCOL.md; this file is its box side. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include <string.h>
#include "buttons.h"
#include "config.h"
#include "crc16.h"
#include "events.h"
#include "journal.h"
#include "rng.h"
#include "uart.h"

static const char *const BUTTON_NAMES[BUTTONS_PER_PLAYER] = {"roll", "ready", "shift",
                                                             "strike", "undo"};

static volatile uint32_t ms_ticks;
static uint32_t boot_id;
static uint32_t lost;           /* presses that ever found the event queue full, since the
                                   box's memory began (the journal keeps it; the host
                                   counts from differences, so it never needs resetting) */

static uint8_t sent_count;      /* queued events already sent at least once */
static uint32_t last_send;      /* when the oldest unacknowledged events were last sent */
static uint16_t recent_req[8];  /* host request ids already served (duplicates ignored) */
static uint8_t recent_next;
struct armed { uint8_t sides, n; }; /* sides 0: not armed (one d6) */
static struct armed armed[2];   /* what each player's roll button rolls next */

ISR(TIMER0_COMPA_vect)
{
    ms_ticks++;
    buttons_tick(); /* debounced here, every millisecond, whatever the main loop is doing */
}

static uint32_t millis(void)
{
    uint32_t t;
    uint8_t sreg = SREG;
    cli();
    t = ms_ticks;
    SREG = sreg;
    return t;
}

/* -- frame output ------------------------------------------------------------------ */
static char out[LINE_MAX];
static uint8_t out_len;
static uint8_t out_overflow; /* a body did not fit: never send a cut frame */

static void put(const char *s)
{
    while (*s) {
        if (out_len >= LINE_MAX - 7) {
            out_overflow = 1;
            return;
        }
        out[out_len++] = *s++;
    }
}

static void put_u32(uint32_t v)
{
    char tmp[11];
    uint8_t i = 0;
    do {
        tmp[i++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (i && out_len < LINE_MAX - 7)
        out[out_len++] = tmp[--i];
}

static void put_hex(uint32_t v, uint8_t digits)
{
    static const char hex[] = "0123456789ABCDEF";
    while (digits && out_len < LINE_MAX - 7)
        out[out_len++] = hex[(v >> (4 * --digits)) & 0xF];
}

/* Append "*CRC\n" and queue the frame for transmission if it fits whole. */
static uint8_t send_frame(void)
{
    if (out_overflow)
        return 1; /* cannot happen with max_dice() and LINE_MAX as set; dropped, not cut */
    uint16_t crc = crc16(out, out_len);
    uint8_t body = out_len;
    out[out_len++] = '*';
    put_hex(crc, 4);
    out[out_len++] = '\n';
    if (uart_tx_free() < out_len) {
        out_len = body;
        return 0;
    }
    uart_write(out, out_len);
    return 1;
}

static void start(const char *type)
{
    out_len = 0;
    out_overflow = 0;
    put(type);
}

static void send_hello(void)
{
    start("HELLO ");
    put_u32(PROTOCOL_VERSION);
    put(" " FW_VERSION " ");
    put_hex(boot_id, 8);
    put(" ");
    put_u32(events_next_seq());
    put(" ");
    put_u32(events_acked());
    put(" ");
    put_hex(journal_box_id(), 8);
    put(" ");
    put_u32(journal_durable_lost());
    send_frame();
}

static void send_reply(const char *type, uint16_t req, const char *detail)
{
    start(type);
    put(" ");
    if (req)
        put_u32(req);
    else
        put("-");
    if (detail) {
        put(" ");
        put(detail);
    }
    send_frame();
}

static uint8_t send_event(const event_t *ev)
{
    /* Protocol 2: every event names its boot, so a host that missed the boot HELLO
     * still knows these numbers restarted. */
    start("EV ");
    put_hex(boot_id, 8);
    put(" ");
    put_u32(ev->seq);
    if (ev->type == EV_BUTTON) {
        put(" BTN p");
        put_u32(ev->player);
        put(" ");
        put(BUTTON_NAMES[ev->what]);
    } else if (ev->type == EV_ROLL) {
        put(" ROLL ");
        if (ev->req)
            put_u32(ev->req);
        else
            put("-");
        put(" d");
        put_u32(ev->what);
        put(" ");
        if (ev->player) {
            put("p");
            put_u32(ev->player);
        } else {
            put("-");
        }
        put(" ");
        for (uint8_t i = 0; i < ev->n; i++) { /* faces 1..sides: what they mean is the host's */
            if (i)
                put(",");
            put_u32((uint32_t)face_get(ev, i) + 1);
        }
    }
    return send_frame();
}

/* May event number seq be sent? At once, unless the journal has fallen JOURNAL_LAG
 * numbers behind it: a restart goes on from the journal's number, and a host that heard
 * a number the journal never held must be able to tell that from an erased memory (it
 * takes a step back of at most JOURNAL_LAG as one). Serial arithmetic throughout. */
static uint8_t sendable(uint16_t seq)
{
    uint16_t behind = (uint16_t)(seq - journal_durable_next());
    return behind >= 0x8000u || behind < JOURNAL_LAG;
}

/* -- events ------------------------------------------------------------------------------ */
static uint16_t queue_roll(uint16_t req, uint8_t sides, uint8_t n, uint8_t player)
{
    event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EV_ROLL;
    ev.req = req;
    ev.what = sides;
    ev.n = n;
    ev.player = player;
    for (uint8_t i = 0; i < n; i++)
        face_set(&ev, i, rng_below(sides));
    return events_push(&ev);
}

static void on_press(uint8_t index)
{
    rng_mix(((uint32_t)TCNT1 << 16) ^ millis()); /* a human's timing is good entropy */
    event_t ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EV_BUTTON;
    ev.player = (uint8_t)(index / BUTTONS_PER_PLAYER + 1);
    ev.what = (uint8_t)(index % BUTTONS_PER_PLAYER);
    /* A roll press is two events (the BTN, then its ROLL): both are queued or neither,
     * so the host never hears a roll button without its dice. */
    uint8_t needs = ev.what == 0 ? 2 : 1;
    if (events_pending() + needs > EVENT_QUEUE) {
        lost++; /* the host counts differences modulo 2^32: it never saturates */
        return;
    }
    events_push(&ev);
    if (ev.what == 0) { /* the roll button rolls what the host armed (default: one d6) */
        struct armed *a = &armed[ev.player - 1];
        queue_roll(0, a->sides ? a->sides : 6, a->n ? a->n : 1, ev.player);
        a->sides = 0;
        a->n = 0;
    }
}

/* -- host commands ------------------------------------------------------------------------------- */
static char line[LINE_MAX];
static uint8_t line_len;
static uint8_t line_bad;

static uint8_t parse_u16(const char *s, uint16_t *v)
{
    uint32_t x = 0;
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        x = x * 10 + (uint32_t)(*s - '0');
        if (x > 65535)
            return 0;
    }
    *v = (uint16_t)x;
    return 1;
}

static int8_t hexval(char c)
{
    if (c >= '0' && c <= '9') return (int8_t)(c - '0');
    if (c >= 'A' && c <= 'F') return (int8_t)(c - 'A' + 10);
    if (c >= 'a' && c <= 'f') return (int8_t)(c - 'a' + 10);
    return -1;
}

static uint8_t seen_req(uint16_t req)
{
    for (uint8_t i = 0; i < 8; i++)
        if (recent_req[i] == req)
            return 1;
    recent_req[recent_next] = req;
    recent_next = (uint8_t)((recent_next + 1) % 8);
    return 0;
}

static uint8_t parse_player(const char *s)
{
    if (s && s[0] == 'p' && (s[1] == '1' || s[1] == '2') && !s[2])
        return (uint8_t)(s[1] - '0');
    return 0;
}

static void handle_command(char *argv[], uint8_t argc)
{
    uint16_t req = 0;
    const char *cmd = argv[0];
    if (!strcmp(cmd, "HELLO?")) {
        send_hello();
        return;
    }
    if (!strcmp(cmd, "ACK")) {
        uint16_t seq;
        uint32_t boot = 0;
        uint8_t boot_ok = argc == 3 && strlen(argv[2]) == 8;
        for (uint8_t i = 0; boot_ok && i < 8; i++) {
            int8_t d = hexval(argv[2][i]);
            if (d < 0)
                boot_ok = 0;
            else
                boot = (boot << 4) | (uint8_t)d;
        }
        if (boot_ok && boot != boot_id)
            return; /* a late acknowledgement for a previous boot: not ours */
        if (boot_ok && parse_u16(argv[1], &seq)) {
            uint8_t before = events_pending();
            /* An ACK reaches no further than the last event sent: the host cannot have
             * received the others, whatever number it names. */
            if (!sent_count)
                return;
            uint16_t last = events_at((uint8_t)(sent_count - 1))->seq;
            if (seq != last && (uint16_t)(seq - last) < 0x8000u)
                seq = last;
            events_ack(seq);
            uint8_t removed = (uint8_t)(before - events_pending());
            sent_count = removed > sent_count ? 0 : (uint8_t)(sent_count - removed);
            if (removed)
                last_send = millis(); /* progress: give the rest a full timeout */
        } else {
            send_reply("ERR", 0, "args");
        }
        return;
    }
    if (argc < 2 || !parse_u16(argv[1], &req) || req == 0) {
        send_reply("ERR", 0, argc < 2 ? "args" : "req");
        return;
    }
    if (!strcmp(cmd, "PING")) {
        send_reply("OK", req, 0);
    } else if (!strcmp(cmd, "ROLL") || !strcmp(cmd, "ARM")) {
        uint16_t n, sides = 0;
        uint8_t player = argc > 4 ? parse_player(argv[4]) : 0;
        /* the dice: d<sides>, 2 to MAX_SIDES sides, no leading zero */
        uint8_t dice_ok = argc > 2 && argv[2][0] == 'd' && argv[2][1] != '0'
            && parse_u16(argv[2] + 1, &sides) && sides >= 2 && sides <= MAX_SIDES;
        if (argc < 4 || argc > 5 || !dice_ok
                || !parse_u16(argv[3], &n) || n < 1 || n > max_dice((uint8_t)sides)
                || (argc > 4 && !player && strcmp(argv[4], "-"))) {
            send_reply("ERR", req, "args");
        } else if (cmd[0] == 'A') {
            if (!player) {
                send_reply("ERR", req, "args");
            } else {
                armed[player - 1].sides = (uint8_t)sides;
                armed[player - 1].n = (uint8_t)n;
                send_reply("OK", req, 0);
            }
        } else if (seen_req(req)) {
            send_reply("OK", req, "dup"); /* already rolled: the event is on its way */
        } else if (!queue_roll(req, (uint8_t)sides, (uint8_t)n, player)) {
            recent_req[(uint8_t)((recent_next + 7) % 8)] = 0; /* not served after all */
            send_reply("ERR", req, "busy");
        }
    } else if (!strcmp(cmd, "LED")) {
        /* exactly two hex digits, either case */
        uint8_t two = argc == 3 && argv[2][0] && argv[2][1] && !argv[2][2];
        int8_t hi = two ? hexval(argv[2][0]) : -1;
        int8_t lo = two ? hexval(argv[2][1]) : -1;
        if (hi < 0 || lo < 0) {
            send_reply("ERR", req, "args");
            return;
        }
        uint8_t v = (uint8_t)(((uint8_t)hi << 4) | (uint8_t)lo);
        PORTC = (uint8_t)((PORTC & 0xF0) | (v & 0x0F));
        if (v & 0x10) PORTB |= _BV(PB5); else PORTB &= (uint8_t)~_BV(PB5);
        send_reply("OK", req, 0);
    } else if (!strcmp(cmd, "SEED")) {
        uint32_t acc = 0;
        uint8_t k = 0;
        if (argc != 3 || !argv[2][0] || strlen(argv[2]) > 32) {
            send_reply("ERR", req, "args");
            return;
        }
        for (const char *h = argv[2]; *h; h++, k++) {
            int8_t d = hexval(*h);
            if (d < 0) {
                send_reply("ERR", req, "args");
                return;
            }
            acc = (acc << 4) | (uint8_t)d;
            if ((k & 7) == 7)
                rng_mix(acc);
        }
        rng_mix(acc ^ millis());
        send_reply("OK", req, 0);
    } else {
        send_reply("ERR", req, "unknown");
    }
}

/* A frame is "<body>*<4 hex CRC>\n". Anything else is dropped without a reply: the
 * sender's retransmission is what repairs it. */
static void handle_line(void)
{
    if (line_bad || line_len < 6 || line[line_len - 5] != '*')
        return;
    uint8_t body = (uint8_t)(line_len - 5);
    uint16_t crc = 0;
    for (uint8_t i = 0; i < 4; i++) {
        char ch = line[body + 1 + i];
        int8_t d = (ch >= 'a') ? -1 : hexval(ch); /* upper-case only, as specified */
        if (d < 0)
            return;
        crc = (uint16_t)((crc << 4) | (uint8_t)d);
    }
    if (crc16(line, body) != crc)
        return;
    line[body] = 0;
    char *argv[6];
    uint8_t argc = 0;
    char *p = line;
    while (*p && argc < 6) {
        while (*p == ' ')
            *p++ = 0;
        if (!*p)
            break;
        argv[argc++] = p;
        while (*p && *p != ' ')
            p++;
    }
    if (argc)
        handle_command(argv, argc);
}

/* Returns 1 when the byte ended a line (which was then handled). */
static uint8_t feed(uint8_t c)
{
    if (c == '\n') {
        handle_line();
        line_len = 0;
        line_bad = 0;
        return 1;
    } else if (c == '\r') {
        /* tolerated */
    } else if (c < 0x20 || c > 0x7E || line_len >= LINE_MAX - 1) {
        line_bad = 1; /* garbage or an over-long line: drop it at the next newline */
    } else {
        line[line_len++] = (char)c;
    }
    return 0;
}

/* -- boot ---------------------------------------------------------------------------------------- */
static uint16_t adc_read(uint8_t channel)
{
    ADMUX = (uint8_t)(_BV(REFS0) | (channel & 0x0F));
    ADCSRA |= _BV(ADSC);
    while (ADCSRA & _BV(ADSC)) {
    }
    return ADC;
}

static void gather_entropy(void)
{
    ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
    uint32_t boots = eeprom_read_dword((uint32_t *)0);
    eeprom_update_dword((uint32_t *)0, boots + 1);
    rng_mix(boots);
    /* Floating inputs: the low bits of each reading are noise. */
    for (uint8_t i = 0; i < 64; i++) {
        uint32_t v = adc_read(NOISE_CHANNEL_A) ^ ((uint32_t)adc_read(NOISE_CHANNEL_B) << 10);
        rng_mix((v << 16) ^ TCNT1 ^ ((uint32_t)i << 26));
    }
}

int main(void)
{
    MCUSR = 0; /* a watchdog restart leaves WDRF set, which would keep the watchdog on */
    wdt_disable();
    DDRC |= 0x0F;      /* lights */
    DDRB |= _BV(PB5);
    TCCR1A = 0;
    TCCR1B = _BV(CS10); /* free-running at F_CPU: a fine clock for timing jitter */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00); /* /64 */
    OCR0A = (uint8_t)(F_CPU / 64 / 1000 - 1);
    TIMSK0 = _BV(OCIE0A);
    buttons_init();
    uart_init();
    gather_entropy();
    boot_id = rng_next();
    journal_init(rng_next());
    /* Numbering goes on from where the last boot's journal stopped, whatever ended it. */
    events_init(journal_next_seq());
    lost = journal_lost();
    sei();
    wdt_enable(WDTO_250MS);
    send_hello();
    PORTC |= _BV(PC3); /* box ok */

    uint32_t last_hb = millis();
    for (;;) {
        wdt_reset();
        /* One host line per turn of the loop: a burst of lines must not keep presses
         * (sampled by the timer interrupt, queued in order) from going out. */
        int16_t c;
        while ((c = uart_getc()) >= 0)
            if (feed((uint8_t)c))
                break;
        uint32_t now = millis();
        int8_t i;
        while ((i = buttons_next()) >= 0)
            on_press((uint8_t)i);
        lost += buttons_overflows();
        journal_want(events_next_seq(), lost);
        journal_poll();
        if (now - last_hb >= HEARTBEAT_MS) {
            last_hb = now;
            rng_mix(uart_rx_jitter);
            /* protocol 2: HB <boot> <uptime> <acked> <pending> <next_seq> <lost> */
            start("HB ");
            put_hex(boot_id, 8);
            put(" ");
            put_u32(now);
            put(" ");
            put_u32(events_acked());
            put(" ");
            put_u32(events_pending());
            put(" ");
            put_u32(events_next_seq());
            put(" ");
            put_u32(journal_durable_lost());
            send_frame();
        }
        /* New events go out at once (an EEPROM record takes ~34 ms: waiting for it
         * would be felt at the table); the journal follows in the background.
         * Unacknowledged events go again after a timeout. */
        while (sent_count < events_pending() && sendable(events_at(sent_count)->seq)
               && send_event(events_at(sent_count))) {
            if (sent_count == 0)
                last_send = now;
            sent_count++;
        }
        if (sent_count && now - last_send >= RETRANSMIT_MS) {
            last_send = now;
            uint8_t n = sent_count < RETRANSMIT_WINDOW ? sent_count : RETRANSMIT_WINDOW;
            for (uint8_t i = 0; i < n; i++)
                if (!send_event(events_at(i)))
                    break;
        }
    }
}
