"""Unit tests of the bench scripts' stall detector.

usage: python3 -m unittest discover -s service/src/test/bench -p 'test_*.py'
"""
import unittest

from stalls import judge, median, per_second


class PerSecond(unittest.TestCase):
    def test_answers_count_in_the_second_they_arrived_in(self):
        starts = [100.0, 100.2, 100.9, 101.5, 102.1, 103.0]
        ends = [100.1, 100.5, 101.2, 101.6, 102.3, 103.1]
        self.assertEqual([2, 2, 1], per_second(starts, ends))

    def test_the_last_partial_second_and_the_ramp_down_are_left_out(self):
        # Sending stops at 102.5: second 2 is partial, and the answers after it are stragglers.
        starts = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5]
        ends = [0.4, 0.9, 1.4, 1.9, 2.4, 9.0]
        self.assertEqual([2, 2], per_second(starts, ends))

    def test_less_than_a_second_of_sending_judges_nothing(self):
        self.assertEqual([], per_second([5.0, 5.5], [5.2, 5.9]))
        self.assertEqual([], per_second([], []))

    def test_a_request_answered_in_a_later_second_counts_there(self):
        self.assertEqual([0, 0, 1], per_second([0.0, 3.0], [2.5, 3.1]))


class Judge(unittest.TestCase):
    def test_median_of_odd_and_even_counts(self):
        self.assertEqual(3.0, median([5, 1, 3]))
        self.assertEqual(2.5, median([4, 1, 3, 2]))

    def test_a_steady_run_flags_nothing(self):
        m, slowest, at, flagged = judge([3000, 3100, 2900, 3050, 2800])
        self.assertEqual((3000.0, 2800.0, 4, []), (m, slowest, at, flagged))

    def test_a_second_under_a_tenth_of_the_median_is_flagged(self):
        m, slowest, at, flagged = judge([3000, 3100, 299, 3050, 2800])
        self.assertEqual((3000.0, 299.0, 2), (m, slowest, at))
        self.assertEqual([2], flagged)

    def test_exactly_a_tenth_is_not_a_stall(self):
        self.assertEqual([], judge([3000, 3000, 300])[3])

    def test_a_stall_longer_than_half_the_run_is_measured_against_the_fastest_second(self):
        # The run: a few seconds at ~3,270 objects/s, then almost nothing.
        counts = [3270, 3300, 3100, 0, 1, 0, 0, 2, 0, 0]
        m, slowest, at, flagged = judge(counts)
        self.assertEqual((0.5, 0.0, 3), (m, slowest, at))
        self.assertEqual([3, 4, 5, 6, 7, 8, 9], flagged)

    def test_no_seconds(self):
        self.assertEqual((0.0, 0.0, -1, []), judge([]))

    def test_one_second(self):
        self.assertEqual((10.0, 10.0, 0, []), judge([10]))


if __name__ == "__main__":
    unittest.main()
